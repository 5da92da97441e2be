// Schema migrations on PostgreSQL, one file per step as on SQLite (migrate.ts). The version is the
// one row of `schema_version`; a database newer than the app is refused, never touched. Each step
// runs in its own transaction with the version bump, under an advisory lock, so several server
// processes starting at once migrate it exactly once. Back it up with pg_dump (docs/operations.md).
import { DatabaseTooNewError, type MigrateResult } from './migrate';
import { redactUrl, type PostgresDatabase } from './postgres';

export interface PostgresMigration {
  version: number;
  name: string;
  /** The step's SQL (several statements; PL/pgSQL bodies in dollar quotes). */
  sql: string;
}

/** Any number that all processes agree on: the advisory lock that serializes migrations. */
const MIGRATION_LOCK = 727_001;

export function postgresSchemaVersion<T>(db: PostgresDatabase<T>): number {
  const exists = db.query("SELECT to_regclass('schema_version') IS NOT NULL AS e")[0]!.e === 1;
  if (!exists) return 0;
  return Number(db.query('SELECT version FROM schema_version')[0]?.version ?? 0);
}

export function migratePostgres<T>(db: PostgresDatabase<T>, migrations: readonly PostgresMigration[]): MigrateResult {
  const ordered = [...migrations].sort((a, b) => a.version - b.version);
  ordered.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migrations must be numbered 1..n without gaps; found ${m.version} at ${i + 1}`);
  });
  const latest = ordered.length;
  let from: number | undefined;
  for (;;) {
    const done = db.transaction(() => {
      db.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
      db.exec('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL, one INTEGER PRIMARY KEY DEFAULT 1 CHECK (one = 1))');
      const version = postgresSchemaVersion(db);
      from ??= version;
      if (version > latest) throw new DatabaseTooNewError(redactUrl(db.url), version, latest);
      if (version === latest) return true;
      const step = ordered[version]!;
      db.exec(step.sql);
      db.query('INSERT INTO schema_version (version) VALUES ($1) ON CONFLICT (one) DO UPDATE SET version = excluded.version', [
        step.version,
      ]);
      return false;
    });
    if (done) return { from: from ?? latest, to: latest };
  }
}
