// migrations/0011-covering-movements-index.ts on PostgreSQL: movements_by_credit carries the amount,
// so a credit's summary sums its movements from the index alone.
import type { PostgresMigration } from '@platform/db/postgres-migrate';

export const postgresMigration0011: PostgresMigration = {
  version: 11,
  name: 'covering-movements-index',
  sql: `
    DROP INDEX movements_by_credit;
    CREATE INDEX movements_by_credit ON movements (credit_id, kind) INCLUDE (amount);
  `,
};
