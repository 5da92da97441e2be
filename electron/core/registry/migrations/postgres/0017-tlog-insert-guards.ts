// migrations/0017-tlog-insert-guards.ts on PostgreSQL: nothing to add, as for 0012. PostgreSQL has no
// INSERT OR REPLACE; an upsert's update fires the log tables' BEFORE UPDATE triggers (0014). The
// version keeps both engines' schemas numbered alike.
import type { PostgresMigration } from '@platform/db/postgres-migrate';

export const postgresMigration0017: PostgresMigration = {
  version: 17,
  name: 'tlog-insert-guards',
  sql: `SELECT 1;`,
};
