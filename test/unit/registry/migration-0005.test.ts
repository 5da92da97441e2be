// Migration 0005 (operators, their tokens, the audit log, idempotency keys) on a database made by a
// version-4 registry: the data is kept, the new tables exist, and the audit log refuses UPDATE and
// DELETE as the ledger does.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@platform/clock';
import { openSqlite } from '@platform/db/open';
import { appendAudit } from '@registry/audit';
import { defaultNewId, type RegistryContext } from '@registry/context';
import { migration0001 } from '@registry/migrations/0001-initial';
import { migration0002 } from '@registry/migrations/0002-project-list-indexes';
import { migration0003 } from '@registry/migrations/0003-covering-holds-index';
import { migration0004 } from '@registry/migrations/0004-used-signatures';
import { registryMigrations } from '@registry/migrations';
import { openRegistry, REGISTRY_DB_FILE } from '@registry/open';
import * as ops from '@registry/operations';
import type { RegistryTables } from '@registry/schema';
import { makeDataDir, rsaKeyPair } from '@test/support/registry';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));
const NOW = Date.parse('2024-01-01T12:00:00Z');

describe('migration 0005: operators and the audit log', () => {
  it('upgrades a version-4 database, keeping its data', () => {
    const data = makeDataDir();
    cleanups.push(data.remove);
    const { db } = openSqlite<RegistryTables>(join(data.dir, REGISTRY_DB_FILE), {
      migrations: [migration0001, migration0002, migration0003, migration0004],
    });
    const ctx: RegistryContext = {
      db,
      clock: new ManualClock(NOW),
      newId: defaultNewId,
      urls: { apiBaseUrl: 'http://x', publicBaseUrl: 'https://x' },
    };
    const org = ops.createOrganization(ctx, { fullName: 'Kept', countryCode: 'KE' }).id;
    db.close();

    const registry = openRegistry({ dataDir: data.dir, clock: new ManualClock(NOW) });
    cleanups.unshift(() => registry.close());
    expect(registry.migration).toMatchObject({ from: 4, to: registryMigrations.length });
    expect(registry.db.raw.prepare('SELECT full_name FROM organizations WHERE id = ?').get(org)).toEqual({ full_name: 'Kept' });

    const { operator } = ops.createOperator(registry, { name: 'Ada', role: 'administrator', publicKeyPem: rsaKeyPair().publicKeyPem });
    expect(operator).toMatchObject({ name: 'Ada', role: 'administrator', active: true });
    expect(() => ops.createOperator(registry, { name: 'X', role: 'owner' as never, publicKeyPem: rsaKeyPair().publicKeyPem })).toThrow(
      /role/,
    );
    expect(() => registry.db.raw.prepare("UPDATE operators SET role = 'owner'").run()).toThrow(/CHECK/);

    registry.db.transaction(() =>
      appendAudit(registry, {
        operatorId: operator.id,
        actor: `operator:${operator.id}`,
        action: 'organizations.setVerified',
        targetIds: [org, org],
        outcome: 'succeeded',
        detail: { input: { organizationId: org, privateKeyPem: 'secret' } },
      }),
    );
    const row = registry.db.raw.prepare('SELECT target_ids, detail FROM audit_log').get() as { target_ids: string; detail: string };
    expect(JSON.parse(row.target_ids)).toEqual([org]);
    expect(row.detail).not.toContain('secret');
    expect(() => registry.db.raw.prepare("UPDATE audit_log SET outcome = 'failed'").run()).toThrow(/append-only/);
    expect(() => registry.db.raw.prepare('DELETE FROM audit_log').run()).toThrow(/append-only/);
    expect(() => registry.db.raw.prepare('DELETE FROM audit_targets').run()).toThrow(/append-only/);
    expect(() =>
      registry.db.raw
        .prepare('INSERT INTO idempotency_keys (operator_id, key, request_hash, status, answer, created_at) VALUES (?, ?, ?, ?, ?, ?)')
        .run('nobody', 'k', 'h', 200, '{}', NOW),
    ).toThrow(/FOREIGN KEY/);
  });
});
