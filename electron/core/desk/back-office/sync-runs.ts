// When the back-office cache is synced (index.ts): one run at a time; the run itself is sync.ts.
import { RegistryClientError } from '@desk/client/errors';
import { settleRefusals } from '@desk/verification/guard';
import type { BackOfficeContext } from './context';
import { syncBackOffice } from './sync';

/** The back-office cache's sync, one run at a time (a run asked for during one follows it). */
export function syncRuns(ctx: BackOfficeContext): () => Promise<void> {
  const { options, tracker, clock, log, storeOf } = ctx;
  let running: Promise<void> | null = null;
  let queued: Promise<void> | null = null;
  /**
   * A sync that starts after this call. A run already under way (a write's, or one the reachability
   * probe started) may have read the lists before the caller's change: joining it would hand back
   * stale lists, so one more run follows it, shared by every caller that asked meanwhile.
   */
  function sync(): Promise<void> {
    if (running) {
      queued ??= running.then(() => {
        queued = null;
        return sync();
      });
      return queued;
    }
    const active = options.active();
    if (!active || active.connection.operatorId === undefined) return Promise.resolve();
    running = syncBackOffice(active.client, storeOf(active), clock)
      .then(() => tracker.report(true))
      .catch((error: unknown) => {
        if (error instanceof RegistryClientError) tracker.report(!error.unreachable);
        log(`back-office sync failed: ${error instanceof Error ? error.message : String(error)}`);
      })
      .finally(() => {
        running = null;
        // credit histories the cache refused (they differ from their verified leaves) become evidence
        settleRefusals(active.cache.db, clock.now());
      });
    return running;
  }
  return sync;
}
