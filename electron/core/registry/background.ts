// Work the registry does on its own while it serves. Each service starts with the server and stops
// before the database closes; which services run is the server's choice (http/server.ts), so the
// registry's modules define services without knowing of each other.
//
// No service may take the process down: a tick that fails (the database restarting, a full disk)
// is logged when a failure episode starts and when the service works again, never once per tick,
// and the next tick simply tries again.
import type { RegistryContext } from './context';

export interface BackgroundOptions {
  /** Where a service reports the start and the end of a failure episode (default: stderr). */
  log?: (line: string) => void;
}

export interface BackgroundService {
  name: string;
  start(ctx: RegistryContext, options?: BackgroundOptions): { stop(): Promise<void> | void };
}

export interface BackgroundServices {
  stop(): Promise<void>;
}

export const stderrLog = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Tracks one job's failure episode: `failed` logs only the first failure, `succeeded` the recovery. */
export function failureEpisodes(name: string, log: (line: string) => void = stderrLog) {
  let failing = false;
  return {
    failed(error: unknown, what = 'failed'): void {
      if (failing) return;
      failing = true;
      log(`${name}: ${what}: ${messageOf(error)} (retrying; logged again only once it works)`);
    },
    succeeded(): void {
      if (!failing) return;
      failing = false;
      log(`${name}: works again`);
    },
  };
}

/**
 * Runs `tick` every `ms` (and at once with `runNow`) on an unref'd timer, which never keeps the
 * process alive; no error escapes a tick. A tick may answer a promise (a read that does not hold the
 * process): no tick starts while one is still running, and stop() waits for the running one.
 */
export function repeatSafely(
  name: string,
  ms: number,
  tick: () => unknown,
  options: { log?: ((line: string) => void) | undefined; runNow?: boolean } = {},
): { stop(): Promise<void> } {
  const log = options.log ?? stderrLog;
  const episodes = failureEpisodes(name, log);
  let running: Promise<void> | undefined;
  const run = (): void => {
    if (running) return;
    try {
      const result = tick();
      if (result instanceof Promise) {
        running = result.then(episodes.succeeded, episodes.failed).finally(() => (running = undefined));
        return;
      }
      episodes.succeeded();
    } catch (error) {
      episodes.failed(error);
    }
  };
  if (options.runNow) run();
  const timer = setInterval(run, ms);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}

/** Starts the services in order; stop() stops them in reverse order. */
export function startBackgroundServices(
  ctx: RegistryContext,
  services: readonly BackgroundService[],
  options: BackgroundOptions = {},
): BackgroundServices {
  const running = services.map((s) => s.start(ctx, options));
  return {
    async stop() {
      for (const r of running.reverse()) await r.stop();
    },
  };
}
