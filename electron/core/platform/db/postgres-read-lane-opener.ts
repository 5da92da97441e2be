// The opening of the read pool's connections (postgres-read-pool.ts), one at a time, and the backoff
// after a failed open: how soon another may be tried, and when a failure is tried once more at once.
import type { NativeClient } from './postgres-connection';
import { StatementDeadlinePassed } from './postgres-timed';

const FIRST_RETRY_MS = 50;
/** An open that failed sooner was refused or cut, not left unanswered (libpq's connect timeout is 2 s). */
const QUICK_FAILURE_MS = 250;
const MAX_RETRY_MS = 1000;

/**
 * Whether a failed open waited out a timeout (the database not answering) rather than being refused
 * or cut. What the server said (a FATAL: its backend terminated, or the system shutting down) came
 * at once, however late this process noticed it: an open begun before the process was held (a
 * synchronous statement on the main connection, say) fails only once it is free again, and timed
 * from its start it looked slow, so the reads waiting were answered 503 with the database up.
 */
function waitedOut(error: unknown, tookMs: number): boolean {
  if (error instanceof StatementDeadlinePassed) return true;
  const message = error instanceof Error ? error.message.trim() : '';
  if (/timeout expired/i.test(message)) return true;
  return tookMs > QUICK_FAILURE_MS && !/^(FATAL|ERROR):/.test(message);
}

/** What the opener asks of its pool. */
export interface LaneOpenerHost {
  /** Opens one connection with the session's settings, without blocking the process. */
  open(): Promise<NativeClient>;
  /** Whether the pool was closed (a connection opened after that is released). */
  closed(): boolean;
  /** Closes a connection. */
  release(client: NativeClient): void;
  /** Reads waiting for a connection, and connections open: what a failed open's backoff depends on. */
  standing(): { queued: number; lanes: number };
  /** A connection opened. */
  opened(client: NativeClient): void;
  /** An open failed while reads wait and none is open; `slow`: it waited out the connect timeout. */
  failed(error: unknown, slow: boolean): void;
}

export class LaneOpener {
  private opening = false;
  private failures = 0;
  private retryAt = 0;
  /** A failed open was tried once more at once since the last one that opened. */
  private openedAgain = false;

  constructor(private readonly host: LaneOpenerHost) {}

  /** A connection is being opened. */
  get busy(): boolean {
    return this.opening;
  }

  /** The backoff after the last failed open is over. */
  get due(): boolean {
    return performance.now() >= this.retryAt;
  }

  open(): void {
    this.opening = true;
    const startedAt = performance.now();
    this.host.open().then(
      (client) => {
        this.opening = false;
        if (this.host.closed()) return this.host.release(client);
        this.openedAgain = false;
        this.failures = 0;
        this.host.opened(client);
      },
      (error: unknown) => {
        this.opening = false;
        if (this.host.closed()) return;
        this.failures += 1;
        const slow = waitedOut(error, performance.now() - startedAt);
        const { queued, lanes } = this.host.standing();
        // Cut at once (a restart, or backends terminated, as it opened) while no read waited for it, or
        // for the first time since one last opened while reads wait on connections that may prove cut
        // too: no backoff, so the next read to need a connection opens one rather than be answered 503.
        const quiet = !slow && (queued === 0 || (this.failures === 1 && lanes > 0));
        this.retryAt = quiet ? 0 : performance.now() + Math.min(FIRST_RETRY_MS * 2 ** (this.failures - 1), MAX_RETRY_MS);
        // the reads wait for the open connections (or there are none waiting)
        if (lanes > 0 || queued === 0) return;
        // A failure that came at once may be a restart that cut the connection being opened (as the
        // reads found the others cut): once more at once, as a cut read runs once more. One that waited
        // out the connect timeout is a database not answering. Else the reads waiting get 503.
        if (!slow && !this.openedAgain) {
          this.openedAgain = true;
          return this.open();
        }
        this.host.failed(error, slow);
      },
    );
  }
}
