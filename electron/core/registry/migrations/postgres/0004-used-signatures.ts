// migrations/0004-used-signatures.ts on PostgreSQL: each finalize signature's digest is kept with the
// retirement it finalized; the primary key makes a second use impossible.
import type { PostgresMigration } from '@platform/db/postgres-migrate';

export const postgresMigration0004: PostgresMigration = {
  version: 4,
  name: 'used-signatures',
  sql: `
    CREATE TABLE used_signatures (
      digest        TEXT COLLATE "C" PRIMARY KEY CHECK (length(digest) = 64),
      retirement_id TEXT COLLATE "C" NOT NULL UNIQUE REFERENCES retirements (id),
      used_at       BIGINT NOT NULL
    );
  `,
};
