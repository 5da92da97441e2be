// migrations/0015-tlog-leaf-hash-only.ts on PostgreSQL: the leaves keep their hash only.
import type { PostgresMigration } from '@platform/db/postgres-migrate';

export const postgresMigration0015: PostgresMigration = {
  version: 15,
  name: 'tlog-leaf-hash-only',
  sql: 'ALTER TABLE tlog_leaves DROP COLUMN data;',
};
