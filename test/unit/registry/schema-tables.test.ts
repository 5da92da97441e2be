// The registry's kysely tables (electron/core/registry/schema.ts) against the migrated database:
// the literal (registry-core-columns.ts and its other half) is what `PRAGMA table_info` reports for
// each table after every migration; the compiler holds it to RegistryTables (a column missing, extra or typed against its SQL fails the
// typecheck) and this test holds it to the database. A migration that adds a column makes both fail
// until the interface and the literal say the same.
import { describe, expect, it } from 'vitest';
import { openSqlite } from '@platform/db/open';
import { registryMigrations } from '@registry/migrations';
import type { RegistryTables } from '@registry/schema';
import { migratedColumns, withRowidsAsListed, type TableColumns } from '@test/support/table-columns';
import { CORE_COLUMNS } from './registry-core-columns';
import { OPERATOR_FEED_AND_LOG_COLUMNS } from './registry-operator-feed-log-columns';

// The compiler holds the two halves together to every table of RegistryTables.
const REGISTRY_COLUMNS = { ...CORE_COLUMNS, ...OPERATOR_FEED_AND_LOG_COLUMNS } satisfies TableColumns<RegistryTables>;

describe('registry tables', () => {
  it('are the migrated database, table by table and column by column', () => {
    const { db } = openSqlite<RegistryTables>(':memory:', { migrations: registryMigrations });
    try {
      // the log's head row is PostgreSQL's alone since migration 0018; SQLite has every other table
      const { tlog_head: _postgresOnly, ...sqliteColumns } = REGISTRY_COLUMNS;
      expect(withRowidsAsListed(migratedColumns(db.raw), sqliteColumns)).toEqual(sqliteColumns);
    } finally {
      db.close();
    }
  });
});
