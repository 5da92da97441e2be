// migrations/0018-tlog-head-from-leaves.ts on PostgreSQL: nothing to change. Several server processes
// append there, and the head row's lock is what queues them in commit order, so the head stays. The
// version keeps both engines' schemas numbered alike.
import type { PostgresMigration } from '@platform/db/postgres-migrate';

export const postgresMigration0018: PostgresMigration = {
  version: 18,
  name: 'tlog-head-from-leaves',
  sql: `SELECT 1;`,
};
