// migrations/0019-tlog-refs-at-checkpoint.ts on PostgreSQL: nothing to change. Its leaves keep their
// UNIQUE (kind, ref) index, through which a record's leaf is found; the version keeps both engines'
// schemas numbered alike.
import type { PostgresMigration } from '@platform/db/postgres-migrate';

export const postgresMigration0019: PostgresMigration = {
  version: 19,
  name: 'tlog-refs-at-checkpoint',
  sql: `SELECT 1;`,
};
