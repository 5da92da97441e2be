// Migration 0004 (used signatures) on a database made by a version-3 registry: its retirements are
// kept, and the new table refuses a second use of one signature digest or a second digest per retirement.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@platform/clock';
import { openSqlite } from '@platform/db/open';
import { defaultNewId, type RegistryContext } from '@registry/context';
import { migration0001 } from '@registry/migrations/0001-initial';
import { migration0002 } from '@registry/migrations/0002-project-list-indexes';
import { migration0003 } from '@registry/migrations/0003-covering-holds-index';
import { registryMigrations } from '@registry/migrations';
import { openRegistry, REGISTRY_DB_FILE } from '@registry/open';
import * as ops from '@registry/operations';
import type { RegistryTables } from '@registry/schema';
import { buildFixture } from '@test/support/fixture';
import { makeDataDir } from '@test/support/registry';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));
const NOW = Date.parse('2024-01-01T12:00:00Z');
const WALLET = '0x00000000000000000000000000000000000000aa';

function seedVersion3(dir: string): string {
  const { db } = openSqlite<RegistryTables>(join(dir, REGISTRY_DB_FILE), { migrations: [migration0001, migration0002, migration0003] });
  const ctx: RegistryContext = {
    db,
    clock: new ManualClock(NOW),
    newId: defaultNewId,
    urls: { apiBaseUrl: 'http://127.0.0.1', publicBaseUrl: 'https://r.example' },
  };
  const f = buildFixture(ctx as Parameters<typeof buildFixture>[0]);
  const { retirementId } = ops.recordOnchainRetirement(ctx, {
    walletAddress: WALLET,
    creditId: f.creditId,
    amount: 1,
    fromOrganizationId: f.orgA,
  });
  db.close();
  return retirementId;
}

describe('migration 0004: used signatures', () => {
  it('upgrades a version-3 database; a digest is used once, a retirement has one', () => {
    const data = makeDataDir();
    cleanups.push(data.remove);
    const retirementId = seedVersion3(data.dir);
    const registry = openRegistry({ dataDir: data.dir, clock: new ManualClock(NOW) });
    cleanups.unshift(() => registry.close());
    // later migrations run too: the upgrade goes to the newest version
    expect(registry.migration).toMatchObject({ from: 3, to: registryMigrations.length });
    expect(registry.db.raw.prepare('SELECT count(*) AS n FROM retirements WHERE id = ?').get(retirementId)).toEqual({ n: 1 });

    const insert = registry.db.raw.prepare('INSERT INTO used_signatures (digest, retirement_id, used_at) VALUES (?, ?, ?)');
    insert.run('a'.repeat(64), retirementId, NOW);
    expect(() => insert.run('a'.repeat(64), retirementId, NOW)).toThrow(/UNIQUE|PRIMARY KEY/);
    expect(() => insert.run('b'.repeat(64), retirementId, NOW)).toThrow(/UNIQUE/);
    expect(() => insert.run('short', retirementId, NOW)).toThrow(/CHECK/);
    expect(() => insert.run('c'.repeat(64), 'no-such-retirement', NOW)).toThrow(/FOREIGN KEY/);
  });
});
