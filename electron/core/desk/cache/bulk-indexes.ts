// Writing a whole table at once (a first sync's swap-in): each secondary index would take every row
// at a random place, which at --scale 100 costs more than the rows themselves. Into an empty table
// the indexes are dropped for the write and built again after it (a sort each), inside the
// caller's transaction: a failed write rolls the drop back with the rows. Unique indexes stay.
import { sql } from 'kysely';
import type { SqliteDatabase } from '@platform/db/database';

type Db = Pick<SqliteDatabase<unknown>, 'raw' | 'all' | 'first' | 'run'>;

/** The table's secondary (non-unique) indexes, as created. */
export function secondaryIndexesOf(db: Db, table: string): { name: string; sql: string }[] {
  // A read of SQLite's catalog, which is no table of the cache's schema.
  return db.all(
    sql<{ name: string; sql: string }>`SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = ${table}
      AND sql IS NOT NULL AND sql NOT LIKE 'CREATE UNIQUE%' ORDER BY rowid`,
  );
}

/** Drops the table's secondary indexes (inside the caller's transaction); answers them, to build again. */
export function dropSecondaryIndexes(db: Db, table: string): { name: string; sql: string }[] {
  const indexes = secondaryIndexesOf(db, table);
  for (const index of indexes) db.run(sql`DROP INDEX ${sql.id(index.name)}`);
  return indexes;
}

/**
 * How much of the page cache's memory (KiB) each sort of an index build holds before SQLite writes
 * it out as a sorted run for its helper thread to sort and merge (PRAGMA cache_size sets both).
 */
const SORT_RUN_KIB = 2_048;

/**
 * Builds indexes (their CREATE statements) with SQLite's sorter allowed one helper thread. A sort
 * that fits in the page cache (16 MB) is done on the calling thread alone; in runs of 2 MB, the
 * helper sorts and writes each run while the caller reads the next keys. At the end of a first
 * sync, when the registry is done and the other core idles, 100,000 retirements' seven indexes took
 * 0.61-0.69 s instead of 0.80-0.85 s (for 5-10 % more CPU; bench/README.md, sync). The page cache's
 * size and the thread count are put back after, a failed build included. `sortHelper: false`: on
 * the calling thread alone, for builds while the registry makes pages on the other core.
 */
export function buildIndexes(db: Pick<Db, 'raw'>, indexes: readonly { sql: string }[], { sortHelper = true } = {}): void {
  if (!sortHelper) {
    for (const index of indexes) db.raw.exec(index.sql);
    return;
  }
  if (indexes.length === 0) return;
  const cacheSize = db.raw.pragma('cache_size', { simple: true }) as number;
  const threads = db.raw.pragma('threads', { simple: true }) as number;
  db.raw.pragma('threads = 1');
  db.raw.pragma(`cache_size = -${SORT_RUN_KIB}`);
  try {
    for (const index of indexes) db.raw.exec(index.sql);
  } finally {
    db.raw.pragma(`cache_size = ${cacheSize}`);
    db.raw.pragma(`threads = ${threads}`);
  }
}

/**
 * Runs `write` (inside a transaction) with `table`'s secondary indexes dropped when `empty` says
 * the rows it is about to write are all there will be of them (`empty`: e.g. no row of the scope),
 * building them again after it.
 */
export function withIndexesBuiltAfter<T>(db: Db, table: string, empty: string, write: () => T): T {
  if (!db.raw.inTransaction) throw new Error('withIndexesBuiltAfter runs inside a transaction');
  // The table and the condition are the caller's constants, which no builder of the schema's types can take.
  if (db.first(sql<{ one: 1 }>`SELECT 1 AS one FROM ${sql.table(table)} WHERE ${sql.raw(empty)} LIMIT 1`) !== undefined) return write();
  const indexes = dropSecondaryIndexes(db, table);
  const result = write();
  buildIndexes(db, indexes);
  return result;
}
