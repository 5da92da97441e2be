// A full disk as the registry answers it: 507 with a message that says nothing changed.

export const DISK_FULL_MESSAGE =
  "The registry's disk is full: nothing was changed. Reads still work; retry the change once the operator has freed space.";

/** SQLite's "database or disk is full" (a full disk, or the database at its max_page_count). */
export function isDiskFull(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'SQLITE_FULL';
}
