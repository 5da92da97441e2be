// migrations/0009-rate-limit-buckets.ts on PostgreSQL: one token bucket per key (an app, an operator,
// a client address's failed authentications), shared by every server process. UNLOGGED: buckets are
// not worth a WAL write per request, and after a crash they start full, as a restarted SQLite
// registry's in-memory ones do.
import type { PostgresMigration } from '@platform/db/postgres-migrate';

export const postgresMigration0009: PostgresMigration = {
  version: 9,
  name: 'rate-limit-buckets',
  sql: `
    CREATE UNLOGGED TABLE rate_limit_buckets (
      key        TEXT COLLATE "C" PRIMARY KEY,
      tokens     DOUBLE PRECISION NOT NULL,
      updated_at BIGINT NOT NULL
    );
  `,
};
