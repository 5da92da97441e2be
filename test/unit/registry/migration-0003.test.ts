// Migration 0003 (covering holds index) on a database made by a version-2 registry: live
// reservations are kept, the index now carries the amount, and the hold sum reads the index only.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@platform/clock';
import { openSqlite } from '@platform/db/open';
import { defaultNewId, type RegistryContext } from '@registry/context';
import { heldInWarehouse } from '@registry/holds';
import { migration0001 } from '@registry/migrations/0001-initial';
import { migration0002 } from '@registry/migrations/0002-project-list-indexes';
import { registryMigrations } from '@registry/migrations';
import { openRegistry, REGISTRY_DB_FILE } from '@registry/open';
import * as ops from '@registry/operations';
import type { RegistryTables } from '@registry/schema';
import { buildFixture } from '@test/support/fixture';
import { makeDataDir, rsaKeyPair } from '@test/support/registry';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));
const NOW = Date.parse('2024-01-01T12:00:00Z');

function seedVersion2(dir: string) {
  const { db } = openSqlite<RegistryTables>(join(dir, REGISTRY_DB_FILE), { migrations: [migration0001, migration0002] });
  const ctx: RegistryContext = {
    db,
    clock: new ManualClock(NOW),
    newId: defaultNewId,
    urls: { apiBaseUrl: 'http://127.0.0.1', publicBaseUrl: 'https://r.example' },
  };
  const f = buildFixture(ctx as Parameters<typeof buildFixture>[0]);
  const app = ops.createApp(ctx, { name: 'App', publicKeyPem: rsaKeyPair().publicKeyPem });
  const insert = db.raw.prepare(
    `INSERT INTO reservations (id, organization_id, credit_id, amount, app_id, created_at, reserved_to, state, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  insert.run('live', f.orgA, f.creditId, 2_000_000, app.id, NOW, NOW + 600_000, 'pending', NOW);
  insert.run('queued', f.orgA, f.creditId, 500_000, app.id, NOW - 700_000, NOW - 100_000, 'pending_queue', NOW);
  insert.run('lapsed', f.orgA, f.creditId, 7_000_000, app.id, NOW - 700_000, NOW - 100_000, 'pending', NOW);
  db.close();
  return f;
}

describe('migration 0003: covering holds index', () => {
  it('upgrades a version-2 database; holds read the same and from the index alone', () => {
    const data = makeDataDir();
    cleanups.push(data.remove);
    const f = seedVersion2(data.dir);
    const registry = openRegistry({ dataDir: data.dir, clock: new ManualClock(NOW) });
    cleanups.unshift(() => registry.close());
    // later migrations run too: the upgrade goes to the newest version
    expect(registry.migration).toMatchObject({ from: 2, to: registryMigrations.length });

    const columns = (registry.db.raw.prepare("SELECT name FROM pragma_index_info('reservations_holding')").all() as { name: string }[]).map(
      (c) => c.name,
    );
    expect(columns).toEqual(['organization_id', 'credit_id', 'state', 'reserved_to', 'amount']);
    // the live pending one and the queued one hold; the lapsed pending one does not
    expect(heldInWarehouse(registry, f.orgA, f.creditId)).toBe(2_500_000);
    const plan = registry.db.raw
      .prepare(
        `EXPLAIN QUERY PLAN SELECT COALESCE(SUM(amount), 0) FROM reservations WHERE organization_id = @org AND credit_id = @credit
         AND state IN ('pending', 'pending_queue') AND (state = 'pending_queue' OR reserved_to > @now)`,
      )
      .all({ org: f.orgA, credit: f.creditId, now: NOW }) as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' ')).toMatch(/COVERING INDEX reservations_holding/);
  });
});
