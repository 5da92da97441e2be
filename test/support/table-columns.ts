// What a schema-drift test compares: each table's columns as `PRAGMA table_info` reports them, in
// one string each (the declared type or UNTYPED, plus ` NULL` where NULL is allowed), against a literal written
// from the migrations that the compiler holds to the kysely table interfaces (`TableColumns<…>`): a
// column missing from, or extra to, an interface, or typed against its SQL, fails the typecheck; a
// literal that differs from the migrated database fails the test.
import type { SelectType } from 'kysely';
import type { RawDatabase } from '@platform/db/database';

/** The declared SQL type a TypeScript column type may have (UNTYPED: an FTS5 column). */
type SqlTypeOf<V> = [V] extends [string] ? 'TEXT' | 'UNTYPED' : [V] extends [number] ? 'INTEGER' | 'REAL' : never;
type ColumnSpec<V> = null extends V ? `${SqlTypeOf<NonNullable<V>>} NULL` : SqlTypeOf<V>;

/**
 * Every table of `Tables` with every column. `rowid` is the implicit rowid (an interface lists it
 * where the code uses it), written `'ROWID'`.
 */
export type TableColumns<Tables> = {
  [T in keyof Tables]-?: { [C in keyof Tables[T]]-?: C extends 'rowid' ? 'ROWID' : ColumnSpec<SelectType<Tables[T][C]>> };
};

interface TableListRow {
  name: string;
  type: string;
  wr: number;
}
interface TableInfoRow {
  name: string;
  type: string;
  notnull: number;
  pk: number;
}

/**
 * The database's tables (SQLite's own and FTS5's shadow tables aside) in the same form. A primary
 * key column counts as NOT NULL: nothing writes NULL there, though SQLite would allow it in a
 * rowid table that is not STRICT.
 */
export function migratedColumns(db: RawDatabase): Record<string, Record<string, string>> {
  const tables = db.prepare('PRAGMA main.table_list').all() as TableListRow[];
  const result: Record<string, Record<string, string>> = {};
  for (const table of tables) {
    if (table.name.startsWith('sqlite_') || (table.type !== 'table' && table.type !== 'virtual')) continue;
    const columns: Record<string, string> = {};
    for (const c of db.prepare(`PRAGMA main.table_info(${JSON.stringify(table.name)})`).all() as TableInfoRow[]) {
      columns[c.name] = `${c.type || 'UNTYPED'}${c.notnull === 0 && c.pk === 0 ? ' NULL' : ''}`;
    }
    if (table.wr === 0) columns.rowid = 'ROWID';
    result[table.name] = columns;
  }
  return result;
}

/**
 * The literal as the database would have it: the implicit rowid is kept only where the literal
 * lists it (every rowid table has one; only some interfaces need it).
 */
export function withRowidsAsListed(
  migrated: Record<string, Record<string, string>>,
  listed: Record<string, Record<string, string>>,
): Record<string, Record<string, string>> {
  return Object.fromEntries(
    Object.entries(migrated).map(([table, columns]) => {
      const { rowid, ...rest } = columns;
      return [table, rowid && listed[table]?.rowid ? { ...rest, rowid } : rest];
    }),
  );
}
