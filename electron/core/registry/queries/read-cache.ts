// A small cache for expensive read answers (pages of projects), valid exactly as long as the
// database is unchanged. The stamp is the engine's change stamp (db.changeStamp(): on SQLite
// total_changes() with PRAGMA data_version, so a commit by another connection such as the operator
// CLI counts; on PostgreSQL the current snapshot, which moves whenever a writing transaction of any
// process starts or ends). Any write anywhere empties the cache, so
// an answer can never be stale; between writes a hot page costs one tiny query instead of a
// count, a page query and one batched query per related table.
import type { RegistryContext } from '../context';

export function databaseStamp(ctx: RegistryContext): string {
  return ctx.db.changeStamp();
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
