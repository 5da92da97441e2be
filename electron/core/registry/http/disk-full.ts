// A full disk as the registry answers it (507 with a message that says nothing changed), and as
// the operator hears of it: one episode, not one line per request.
import type { MiddlewareHandler } from 'hono';

export const DISK_FULL_MESSAGE =
  "The registry's disk is full: nothing was changed. Reads still work; retry the change once the operator has freed space.";

/** SQLite's "database or disk is full" (a full disk, or the database at its max_page_count). */
export function isDiskFull(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'SQLITE_FULL';
}

/**
 * `onDiskFull(true)` when the first write fails for a full disk (call `failed()`), and
 * `onDiskFull(false)` when a write succeeds afterwards (the middleware sees it), never once per request.
 */
export function diskFullEpisodes(onDiskFull?: (full: boolean) => void): { failed(): void; middleware: MiddlewareHandler } {
  let diskFull = false;
  const setDiskFull = (full: boolean) => {
    if (diskFull === full) return;
    diskFull = full;
    onDiskFull?.(full);
  };
  return {
    failed: () => setDiskFull(true),
    middleware: async (c, next) => {
      await next();
      if (diskFull && c.req.method !== 'GET' && c.req.method !== 'OPTIONS' && c.res.status < 400) setDiskFull(false);
    },
  };
}
