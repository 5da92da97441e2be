// Writing a whole table at once (a first sync's swap-in): each secondary index would take every row
// at a random place, which at --scale 100 costs more than the rows themselves. Into an empty table
// the indexes are dropped for the write and built again after it (a sort each), inside the
// caller's transaction: a failed write rolls the drop back with the rows. Unique indexes stay.
import type { SqliteDatabase } from '@platform/db/database';

type Db = Pick<SqliteDatabase<unknown>, 'raw'>;

/** The table's secondary (non-unique) indexes, as created. */
export function secondaryIndexesOf(db: Db, table: string): { name: string; sql: string }[] {
  return db.raw
    .prepare(
      `SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL
       AND sql NOT LIKE 'CREATE UNIQUE%' ORDER BY rowid`,
    )
    .all(table) as { name: string; sql: string }[];
}

/**
 * Runs `write` (inside a transaction) with `table`'s secondary indexes dropped when `empty` says
 * the rows it is about to write are all there will be of them (`empty`: e.g. no row of the scope),
 * building them again after it.
 */
export function withIndexesBuiltAfter<T>(db: Db, table: string, empty: string, write: () => T): T {
  if (!db.raw.inTransaction) throw new Error('withIndexesBuiltAfter runs inside a transaction');
  if (db.raw.prepare(`SELECT 1 FROM ${table} WHERE ${empty} LIMIT 1`).get() !== undefined) return write();
  const indexes = secondaryIndexesOf(db, table);
  for (const index of indexes) db.raw.exec(`DROP INDEX "${index.name}"`);
  const result = write();
  for (const index of indexes) db.raw.exec(index.sql);
  return result;
}
