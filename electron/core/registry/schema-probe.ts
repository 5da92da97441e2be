// Whether a table exists in this database, asked once per database and table. The registry's code
// always runs on the latest schema, except on a database an older registry left and a migration
// test stands in for: there the writes made before the remaining migrations run must skip what
// those migrations add (they fill it from the rows when they run).
import { sql } from 'kysely';
import type { RegistryContext } from './context';

const known = new WeakMap<object, Map<string, boolean>>();

export function hasTable(ctx: RegistryContext, table: string): boolean {
  let tables = known.get(ctx.db);
  if (!tables) known.set(ctx.db, (tables = new Map<string, boolean>()));
  let exists = tables.get(table);
  if (exists === undefined) {
    const found = ctx.db.first(
      ctx.db.engine === 'sqlite'
        ? sql<{ n: number }>`SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name = ${table}`
        : sql<{ n: number }>`SELECT COUNT(*) AS n FROM pg_tables WHERE tablename = ${table} AND schemaname = current_schema()`,
    );
    exists = Number(found?.n ?? 0) > 0;
    tables.set(table, exists);
  }
  return exists;
}

/** Whether `tlog_append` exists: a PostgreSQL registry from migration 0020 on (never on SQLite). */
export function hasLogAppendFunction(ctx: RegistryContext): boolean {
  if (ctx.db.engine !== 'postgres') return false;
  let tables = known.get(ctx.db);
  if (!tables) known.set(ctx.db, (tables = new Map<string, boolean>()));
  let exists = tables.get('function tlog_append');
  if (exists === undefined) {
    const found = ctx.db.first(
      sql<{ n: number }>`SELECT COUNT(*) AS n FROM pg_proc WHERE proname = 'tlog_append' AND pronamespace = current_schema()::regnamespace`,
    );
    exists = Number(found?.n ?? 0) > 0;
    tables.set('function tlog_append', exists);
  }
  return exists;
}
