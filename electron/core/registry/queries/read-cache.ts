// A small cache for expensive read answers (pages of projects), valid exactly as long as the
// database is unchanged. The stamp combines SQLite's total_changes() (every row this connection
// ever inserted, updated or deleted, triggers included) with PRAGMA data_version (bumped when
// another connection, such as the operator CLI, commits). Any write anywhere empties the cache, so
// an answer can never be stale; between writes a hot page costs one tiny query instead of a
// count, a page query and one batched query per related table.
import type { RegistryContext } from '../context';

const STAMP_SQL = 'SELECT total_changes() AS changes, (SELECT data_version FROM pragma_data_version()) AS version';

export function databaseStamp(ctx: RegistryContext): string {
  const row = ctx.db.prepare(STAMP_SQL).get() as { changes: number; version: number };
  return `${row.changes}:${row.version}`;
}

export class ReadCache<V> {
  private readonly perRegistry = new WeakMap<RegistryContext, { stamp: string; entries: Map<string, V> }>();

  /** @param maxEntries bound on memory: the least recently used entry is dropped beyond it. */
  constructor(private readonly maxEntries: number) {}

  get(ctx: RegistryContext, key: string, compute: () => V): V {
    const stamp = databaseStamp(ctx);
    let state = this.perRegistry.get(ctx);
    if (!state || state.stamp !== stamp) {
      state = { stamp, entries: new Map() };
      this.perRegistry.set(ctx, state);
    }
    const hit = state.entries.get(key);
    if (hit !== undefined) {
      // re-insert to mark it most recently used (a Map iterates in insertion order)
      state.entries.delete(key);
      state.entries.set(key, hit);
      return hit;
    }
    const value = compute();
    // Computing reads only, so the stamp is unchanged; store under it.
    state.entries.set(key, value);
    if (state.entries.size > this.maxEntries) state.entries.delete(state.entries.keys().next().value as string);
    return value;
  }
}
