// The triggers that make the ledger and the audit log append-only. A database missing one (dropped
// by hand, or restored from a tampered copy) would take rewrites without complaint, so the registry
// refuses to start on it and `npm run admin -- check` reports it.
import { sql } from 'kysely';
import type { SyncDatabase } from '@platform/db/database';
import { APPEND_ONLY_KEYS } from './migrations/0012-append-only-inserts';

const TABLES = APPEND_ONLY_KEYS.map((k) => k.table);

/** The transparency log's tables (migrations 0014 and 0017): the head may only grow. */
const LOG_TABLES = ['tlog_leaves', 'tlog_checkpoints', 'tlog_key'] as const;

/** The ledger's and the audit log's guard triggers (migrations 0001 and 0012). */
const LEDGER_GUARDS = {
  sqlite: TABLES.flatMap((t) => [`${t}_append_only_update`, `${t}_append_only_delete`, `${t}_append_only_replace`]),
  postgres: TABLES.flatMap((t) => [`${t}_append_only`, `${t}_append_only_truncate`]),
};

/** The transparency log's guard triggers (migrations 0014 and 0017), once its tables exist. */
const LOG_GUARDS = {
  sqlite: LOG_TABLES.flatMap((t) => [`${t}_append_only_update`, `${t}_append_only_delete`, `${t}_append_only_replace`]),
  postgres: [...LOG_TABLES.flatMap((t) => [`${t}_append_only`, `${t}_no_truncate`]), 'tlog_head_grows', 'tlog_head_no_truncate'],
};

/** PostgreSQL from migration 0020 on (which added tlog_append): the head's DELETE has a guard of its own. */
const POSTGRES_0020_GUARDS = ['tlog_head_no_delete'];

/** The head row's guards on SQLite, for as long as it has one (migrations 0014 to 0017; 0018 drops it). */
const SQLITE_HEAD_GUARDS = ['tlog_head_grows', 'tlog_head_no_delete', 'tlog_head_append_only_replace'];

/** Every guard trigger each engine's current schema has (SQLite: one per event; PostgreSQL: rows and TRUNCATE). */
export const GUARD_TRIGGERS = {
  sqlite: [...LEDGER_GUARDS.sqlite, ...LOG_GUARDS.sqlite],
  postgres: [...LEDGER_GUARDS.postgres, ...LOG_GUARDS.postgres, ...POSTGRES_0020_GUARDS],
} as const;

/** What reading the triggers takes: a connection of either engine (the registry's, or one opened to check a file). */
export type TriggerSource = Pick<SyncDatabase<unknown>, 'engine' | 'all'>;

/** The guard triggers missing from the database (or disabled, on PostgreSQL), by name. */
export function missingGuards(db: TriggerSource): string[] {
  // each engine's catalog, which the schema's tables do not describe: sql templates
  const triggers =
    db.engine === 'postgres'
      ? sql<{ name: string }>`SELECT tgname AS name FROM pg_trigger WHERE NOT tgisinternal AND tgenabled <> 'D'`
      : sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'trigger'`;
  const present = new Set(db.all(triggers).map((r) => r.name));
  const engine = db.engine === 'postgres' ? 'postgres' : 'sqlite';
  // a schema below migration 0014 (one being migrated, or checked as it is) has no log to guard
  const tables =
    db.engine === 'postgres'
      ? sql<{ name: string }>`SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() AND tablename LIKE 'tlog%'`
      : sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'tlog%'`;
  const logTables = new Set(db.all(tables).map((r) => r.name));
  const at0020 =
    engine === 'postgres' &&
    db.all(
      sql<{ one: number }>`SELECT 1 AS one FROM pg_proc WHERE proname = 'tlog_append' AND pronamespace = current_schema()::regnamespace`,
    ).length > 0;
  const expected = [
    ...LEDGER_GUARDS[engine],
    ...(logTables.has('tlog_leaves') ? LOG_GUARDS[engine] : []),
    ...(engine === 'sqlite' && logTables.has('tlog_head') ? SQLITE_HEAD_GUARDS : []),
    ...(at0020 ? POSTGRES_0020_GUARDS : []),
  ];
  return expected.filter((name) => !present.has(name));
}

export class MissingGuardsError extends Error {
  constructor(
    where: string,
    readonly missing: string[],
  ) {
    super(
      `${where}: the append-only guard trigger${missing.length === 1 ? '' : 's'} ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing, so the ledger, the audit log or the transparency log could be rewritten. The registry does not start on it: restore a backup, or recreate the trigger from the registry's migrations.`,
    );
    this.name = 'MissingGuardsError';
  }
}

export function assertGuards(db: TriggerSource, where: string): void {
  const missing = missingGuards(db);
  if (missing.length > 0) throw new MissingGuardsError(where, missing);
}
