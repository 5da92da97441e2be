// Test support for the registry on PostgreSQL. REGISTRY_TEST_POSTGRES_URL names a server the tests
// may create databases on (`.ci/run` starts one; `scripts/postgres.sh start` for a developer); each
// test registry gets a database of its own, dropped when it closes. Without the variable the
// PostgreSQL tests are skipped, and say so.
import { randomBytes } from 'node:crypto';
import { PostgresDatabase } from '@platform/db/postgres';

export const POSTGRES_URL = process.env.REGISTRY_TEST_POSTGRES_URL ?? '';

export const NO_POSTGRES_MESSAGE =
  'PostgreSQL tests skipped: REGISTRY_TEST_POSTGRES_URL is not set (start one with `scripts/postgres.sh start` and export the URL it prints)';

/** The same server with another database (libpq lets a URI's query name the database). */
export function withDatabase(url: string, database: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}dbname=${database}`;
}

export interface TestDatabase {
  url: string;
  drop(): void;
}

/**
 * A new database on the test server: empty, or a copy of `template` (a database nobody is connected
 * to, such as the migrated registry of postgres-template.ts).
 */
export function createTestDatabase(prefix = 'registry_test', template?: string): TestDatabase {
  if (!POSTGRES_URL) throw new Error(NO_POSTGRES_MESSAGE);
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new PostgresDatabase<unknown>(POSTGRES_URL);
  try {
    admin.exec(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  } finally {
    admin.close();
  }
  return {
    url: withDatabase(POSTGRES_URL, name),
    drop() {
      const again = new PostgresDatabase<unknown>(POSTGRES_URL);
      try {
        again.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        again.close();
      }
    },
  };
}

/**
 * The backends waiting for advisory lock `key` in the database `db` is connected to, in pid order.
 * pg_locks lists the whole server's locks, where other runs (the postgres and pgbouncer projects
 * share one server) may wait on the same key in databases of their own.
 */
export function advisoryLockWaiters(db: PostgresDatabase<unknown>, key: number): number[] {
  return db
    .query(
      `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND NOT granted
         AND database = (SELECT oid FROM pg_database WHERE datname = current_database()) ORDER BY pid`,
      [key],
    )
    .map((row) => Number(row.pid));
}
