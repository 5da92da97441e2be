// Vitest global setup of the `postgres` and `pgbouncer` projects: migrates one registry database
// per run, which each test registry then copies (CREATE DATABASE … TEMPLATE, in postgres.ts) instead
// of creating an empty database and running every migration on it (about 0.6 s each on a busy
// machine, for hundreds of test registries). The migrations are the same code either way; they are
// tested from an empty database in postgres-migrations.test.ts, which does not use the template.
//
// The template is made and migrated over a direct connection, never through PgBouncer: PostgreSQL
// copies a database only while nobody is connected to it, and PgBouncer keeps idle server
// connections open. Its name is handed to the tests with vitest's provide/inject; it is dropped when
// the run ends.
import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { PostgresDatabase } from '@platform/db/postgres';
import { openPostgresRegistry } from '@registry/open';
import { withDatabase } from './postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated registry database test registries copy (postgres-template.ts); '' for none. */
    registryPostgresTemplate: string;
  }
}

/** The server to make the template on: REGISTRY_TEST_POSTGRES_URL as the run was started with it. */
const DIRECT_URL = process.env.REGISTRY_TEST_POSTGRES_URL ?? '';

function onServer(work: (admin: PostgresDatabase<unknown>) => void): void {
  const admin = new PostgresDatabase<unknown>(DIRECT_URL);
  try {
    work(admin);
  } finally {
    admin.close();
  }
}

export default function setup(project: TestProject): (() => void) | undefined {
  if (!DIRECT_URL) {
    project.provide('registryPostgresTemplate', '');
    return undefined;
  }
  const name = `registry_template_${process.pid}_${randomBytes(4).toString('hex')}`;
  onServer((admin) => admin.exec(`CREATE DATABASE ${name}`));
  try {
    openPostgresRegistry({ databaseUrl: withDatabase(DIRECT_URL, name) }).close();
  } catch (error) {
    onServer((admin) => admin.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    throw error;
  }
  project.provide('registryPostgresTemplate', name);
  return () => onServer((admin) => admin.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}
