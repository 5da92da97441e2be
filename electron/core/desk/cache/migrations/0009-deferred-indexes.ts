// The indexes a first sync's load left to be built after its commit (cache/deferred-indexes.ts):
// each index's name, its table and its CREATE statement, recorded in the load's own transaction, so
// a desk that stops before building them finds them at its next run. An index listed here does not
// exist in the cache until it is built; the build creates it and removes its row in one transaction.
import type { Migration } from '@platform/db/migrate';

export const migration0009: Migration = {
  version: 9,
  name: 'deferred-indexes',
  up(db) {
    db.exec(`
      CREATE TABLE deferred_indexes (
        name TEXT PRIMARY KEY,
        table_name TEXT NOT NULL,
        sql TEXT NOT NULL
      ) WITHOUT ROWID;
    `);
  },
};
