// What a desk cache's search table indexes for each row: each entry's tokens per column, in their
// order, read from the index itself through FTS5's vocabulary table. A test that compares two
// caches' search entries compares what a search can find, not the text kept beside the index.
import type BetterSqlite3 from 'better-sqlite3';

export interface SearchEntry {
  rowid: number;
  /** The column's name and its tokens as indexed (lower case, diacritics folded), space-separated. */
  column: string;
  tokens: string;
}

/** Every entry of `table` (a search table of `db`'s main database), by rowid and column. */
export function searchEntries(db: BetterSqlite3.Database, table: string): SearchEntry[] {
  if (!/^[a-z_]+_fts$/.test(table)) throw new Error(`not a search table's name: ${table}`);
  // A vocabulary table lives in the connection's temp schema; it reads the index as it is now.
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${table}_entries USING fts5vocab(main, ${table}, instance)`);
  return db
    .prepare(
      `SELECT doc AS rowid, col AS "column", group_concat(term, ' ' ORDER BY "offset") AS tokens
       FROM temp.${table}_entries GROUP BY doc, col ORDER BY doc, col`,
    )
    .all() as SearchEntry[];
}

/**
 * The entries of `table` keyed by their row's own id, for caches whose rowids differ: `rows` selects
 * each indexed row's `rowid` and `id` (an entry whose row it does not name is keyed "no row N").
 */
export function searchEntriesById(db: BetterSqlite3.Database, table: string, rows: string): Record<string, string[]> {
  const ids = new Map((db.prepare(rows).all() as { rowid: number; id: string }[]).map((r) => [r.rowid, r.id]));
  const byId: Record<string, string[]> = {};
  for (const entry of searchEntries(db, table))
    (byId[ids.get(entry.rowid) ?? `no row ${entry.rowid}`] ??= []).push(`${entry.column}: ${entry.tokens}`);
  return byId;
}
