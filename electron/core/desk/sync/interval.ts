// Background syncing on an interval, the same for the in-thread engine and the worker's host.
import type { SyncEngine } from './types';

export function syncInterval(run: () => Promise<unknown>): Pick<SyncEngine, 'start' | 'stop'> {
  let timer: ReturnType<typeof setInterval> | null = null;
  const stop = () => {
    if (timer) clearInterval(timer);
    timer = null;
  };
  return {
    start(intervalMs, options = {}) {
      if (!(intervalMs >= 1000)) throw new Error('the sync interval must be at least 1 second');
      stop();
      const tick = () => {
        // Errors are in the status and the finished event; an unhandled rejection would crash.
        run().catch(() => {});
      };
      timer = setInterval(tick, intervalMs);
      // A background sync alone never keeps the process alive.
      timer.unref?.();
      if (options.immediately !== false) tick();
    },
    stop,
  };
}
