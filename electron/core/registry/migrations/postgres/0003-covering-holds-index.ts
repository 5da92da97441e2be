// migrations/0003-covering-holds-index.ts on PostgreSQL: the live reservations' index carries the
// amount, so the reserve hot path sums what they hold from the index alone.
import type { PostgresMigration } from '@platform/db/postgres-migrate';

export const postgresMigration0003: PostgresMigration = {
  version: 3,
  name: 'covering-holds-index',
  sql: `
    DROP INDEX reservations_holding;
    CREATE INDEX reservations_holding ON reservations (organization_id, credit_id, state, reserved_to) INCLUDE (amount)
      WHERE state IN ('pending', 'pending_queue');
  `,
};
