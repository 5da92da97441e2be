// The rate limit's token buckets in the database, so that on PostgreSQL every server process spends
// from the same budget (auth/rate-limit.ts, DatabaseRateLimiter). The SQLite registry is served by
// one process and keeps its buckets in memory: the table is created here too so both engines have
// the same schema, and stays empty.
import type { Migration } from '@platform/db/migrate';

export const migration0009: Migration = {
  version: 9,
  name: 'rate-limit-buckets',
  up(db) {
    db.exec(`
      CREATE TABLE rate_limit_buckets (
        key        TEXT PRIMARY KEY,
        tokens     REAL NOT NULL,
        updated_at INTEGER NOT NULL
      ) WITHOUT ROWID;
    `);
  },
};
