// Migration 0007 (the ledger's trail: cancellation reasons and the audit entry of each movement) on
// a database made by a version-6 registry: the ledger is kept, a cancellation keeps its reason, an
// audited write links its movements to its entry, and both tables refuse UPDATE and DELETE.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@platform/clock';
import { openSqlite } from '@platform/db/open';
import { audited } from '@registry/audit';
import { defaultNewId, type RegistryContext } from '@registry/context';
import { registryMigrations } from '@registry/migrations';
import { openRegistry, REGISTRY_DB_FILE } from '@registry/open';
import * as ops from '@registry/operations';
import type { RegistryTables } from '@registry/schema';
import { buildFixture } from '@test/support/fixture';
import { makeDataDir } from '@test/support/registry';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));
const NOW = Date.parse('2024-01-01T12:00:00Z');

describe('migration 0007: the ledger trail', () => {
  it('upgrades a version-6 database, keeping its ledger, and records reasons and audit links from then on', () => {
    const data = makeDataDir();
    cleanups.push(data.remove);
    const { db } = openSqlite<RegistryTables>(join(data.dir, REGISTRY_DB_FILE), { migrations: registryMigrations.slice(0, 6) });
    const ctx: RegistryContext = {
      db,
      clock: new ManualClock(NOW),
      newId: defaultNewId,
      urls: { apiBaseUrl: 'http://x', publicBaseUrl: 'https://x' },
    };
    // a version-6 registry's ledger
    const f = buildFixture(ctx as never);
    const movementsBefore = db.raw.prepare('SELECT * FROM movements ORDER BY id').all();
    db.close();

    const registry = openRegistry({ dataDir: data.dir, clock: new ManualClock(NOW) });
    cleanups.unshift(() => registry.close());
    expect(registry.migration).toMatchObject({ from: 6, to: registryMigrations.length });
    expect(registry.db.raw.prepare('SELECT * FROM movements ORDER BY id').all()).toEqual(movementsBefore);

    const { movementId } = audited(registry, { operatorId: null, actor: 'cli:test', action: 'credits.cancel', input: {} }, () =>
      ops.cancelCredits(registry, { from: { kind: 'inventory', organizationId: f.orgA }, creditId: f.creditId, amount: 1, reason: 'Test' }),
    );
    expect(registry.db.raw.prepare('SELECT reason FROM cancellation_reasons WHERE movement_id = ?').get(movementId)).toEqual({
      reason: 'Test',
    });
    const link = registry.db.raw
      .prepare('SELECT l.action FROM movement_audit m JOIN audit_log l ON l.seq = m.audit_seq WHERE m.movement_id = ?')
      .get(movementId);
    expect(link).toEqual({ action: 'credits.cancel' });
    expect(registry.db.raw.prepare('SELECT COUNT(*) AS n FROM movement_audit').get()).toEqual({ n: 1 });
    for (const table of ['cancellation_reasons', 'movement_audit']) {
      expect(() => registry.db.raw.prepare(`DELETE FROM ${table}`).run()).toThrow(/append-only/);
      expect(() => registry.db.raw.prepare(`UPDATE ${table} SET movement_id = movement_id + 1`).run()).toThrow(/append-only/);
    }
    expect(() => registry.db.raw.prepare("INSERT INTO cancellation_reasons (movement_id, reason) VALUES (?, ' ')").run(1)).toThrow(/CHECK/);
  });
});
