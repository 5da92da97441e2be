// Migration 0016 (each account's total over its credits) on a database as a version-15 registry left
// it (the fixture's ledger, then the table, its triggers and the version taken back): the totals
// start as the sums of the balances, account by account.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@platform/clock';
import { openSqlite } from '@platform/db/open';
import { defaultNewId, type RegistryContext } from '@registry/context';
import { accountTotalOf } from '@registry/ledger';
import { registryMigrations } from '@registry/migrations';
import { REGISTRY_DB_FILE } from '@registry/open';
import type { RegistryTables } from '@registry/schema';
import { buildFixture } from '@test/support/fixture';
import { makeDataDir } from '@test/support/registry';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));
const NOW = Date.parse('2024-01-01T12:00:00Z');
const urls = { apiBaseUrl: 'http://127.0.0.1', publicBaseUrl: 'https://r.example' };

describe('migration 0016: account totals', () => {
  it('upgrades a version-15 database with every account total equal to the sum of its balances', () => {
    const data = makeDataDir();
    cleanups.push(data.remove);
    const { db } = openSqlite<RegistryTables>(join(data.dir, REGISTRY_DB_FILE), { migrations: registryMigrations });
    const ctx: RegistryContext = { db, clock: new ManualClock(NOW), newId: defaultNewId, urls };
    buildFixture(ctx as Parameters<typeof buildFixture>[0]);
    db.raw.exec(`DROP TRIGGER movements_account_total_in; DROP TRIGGER movements_account_total_out; DROP TABLE account_totals;
      PRAGMA user_version = 15;`);
    const sums = db.raw.prepare('SELECT account_id, SUM(amount) AS total FROM balances GROUP BY account_id').all() as {
      account_id: string;
      total: number;
    }[];
    db.close();

    // Only 0016 runs: the later migrations are already in this file's schema (it was made at the
    // latest version and only 0016's objects were taken back), and running them again would not be
    // an upgrade any registry makes.
    const { db: upgraded, migration } = openSqlite<RegistryTables>(join(data.dir, REGISTRY_DB_FILE), {
      migrations: registryMigrations.slice(0, 16),
    });
    cleanups.unshift(() => upgraded.close());
    expect(migration).toMatchObject({ from: 15, to: 16 });
    const after: RegistryContext = { ...ctx, db: upgraded };
    expect(sums.some((s) => s.total > 0)).toBe(true);
    for (const { account_id, total } of sums) expect(accountTotalOf(after, account_id)).toBe(total);
  });
});
