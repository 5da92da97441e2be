// Appending leaves at migration 0014's backfill, on a connection of either engine (the migration's
// SQLite file wrapped in the seam, or PostgreSQL's migration step). sql templates: the leaves'
// `data` column and the source tables chosen by kind are not in the schema's kysely types.
import { sql } from 'kysely';
import type { SyncDatabase } from '@platform/db/database';
import { encodeLeaf, leafHashHex, leafIdOf, LEAF_KINDS, LEAF_SOURCES, type LeafKind } from './leaf';

/** What appending needs from a connection. */
export type LeafWriter = Pick<SyncDatabase<unknown>, 'all' | 'run'>;

/** Appends the leaves of the given stored rows at the end of the log; the caller's transaction holds them. */
export function appendRows(w: LeafWriter, rows: { kind: LeafKind; row: Record<string, unknown> }[]): void {
  if (rows.length === 0) return;
  // One statement takes the head's row lock (held to commit: appends queue here, in commit order)
  // and reserves the indexes; a rolled-back transaction gives them back with its leaves.
  const head = w.all(sql<{ size: number }>`UPDATE tlog_head SET size = size + ${rows.length} WHERE one = 1 RETURNING size`)[0];
  if (!head) throw new Error('the transparency log has no head row (migration 0014)');
  let index = Number(head.size) - rows.length;
  for (const { kind, row } of rows) {
    const data = encodeLeaf(kind, row);
    w.run(
      sql`INSERT INTO tlog_leaves (idx, kind, ref, data, hash)
        VALUES (${index++}, ${kind}, ${leafIdOf(kind, row)}, ${data}, ${leafHashHex(data)})`,
    );
  }
}

/**
 * Every row written before the log existed, appended once at migration: in time order, a
 * transaction's movements before its audit entry at equal times, then by key.
 */
export function backfillLeaves(w: LeafWriter): number {
  const all = LEAF_KINDS.flatMap((kind, rank) => {
    const { table, key, timeColumn } = LEAF_SOURCES[kind];
    return w
      .all(sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)} ORDER BY ${sql.ref(key)}`)
      .map((row) => ({ kind, rank, row, at: Number(row[timeColumn]), key: Number(row[key]) }));
  });
  all.sort((a, b) => a.at - b.at || a.rank - b.rank || a.key - b.key);
  appendRows(w, all);
  return all.length;
}
