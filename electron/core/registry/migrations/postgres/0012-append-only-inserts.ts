// migrations/0012-append-only-inserts.ts on PostgreSQL: nothing to add. PostgreSQL has no INSERT OR
// REPLACE; its only way to rewrite a row on insert, INSERT ... ON CONFLICT DO UPDATE, fires the
// BEFORE UPDATE triggers the append-only tables already have. The version keeps both engines'
// schemas numbered alike (and the guards are checked at start, append-only-guards.ts).
import type { PostgresMigration } from '@platform/db/postgres-migrate';

export const postgresMigration0012: PostgresMigration = {
  version: 12,
  name: 'append-only-inserts',
  sql: `SELECT 1;`,
};
