// Migration 0006 (the changes feed's sequence) on a database made by a version-5 registry: what
// exists becomes the feed's starting point (sequence 0), and from then on every write advances the
// sequence in its own transaction, for exactly the resource keys whose answers it changes.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@platform/clock';
import { openSqlite } from '@platform/db/open';
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

describe('migration 0006: changes feed', () => {
  it('starts the feed at what exists, then records each write in its transaction', () => {
    const data = makeDataDir();
    cleanups.push(data.remove);
    const { db } = openSqlite<RegistryTables>(join(data.dir, REGISTRY_DB_FILE), { migrations: registryMigrations.slice(0, 5) });
    const ctx: RegistryContext = {
      db,
      clock: new ManualClock(NOW),
      newId: defaultNewId,
      urls: { apiBaseUrl: 'http://x', publicBaseUrl: 'https://x' },
    };
    const f = buildFixture(ctx as Parameters<typeof buildFixture>[0]);
    db.close();

    const registry = openRegistry({ dataDir: data.dir, clock: new ManualClock(NOW) });
    cleanups.unshift(() => registry.close());
    expect(registry.migration).toMatchObject({ from: 5, to: registryMigrations.length });
    const raw = registry.db.raw;
    const keys = (kind: string) =>
      (raw.prepare('SELECT key FROM feed_changes WHERE kind = ? ORDER BY key').all(kind) as { key: string }[]).map((r) => r.key);
    const seqNow = () => (raw.prepare('SELECT seq FROM feed_sequence').get() as { seq: number }).seq;
    const changedSince = (seq: number) =>
      (raw.prepare('SELECT kind, key FROM feed_changes WHERE seq > ? ORDER BY kind, key').all(seq) as { kind: string; key: string }[]).map(
        (r) => `${r.kind}:${r.key}`,
      );

    // the starting point: every resource at sequence 0
    expect(seqNow()).toBe(0);
    expect(keys('project')).toEqual([f.projectId, f.draftProjectId].sort());
    expect(keys('organization')).toEqual([f.registryOrgId, f.orgA, f.orgB, f.orgC, f.validatorId].sort());
    expect(keys('inventory')).toEqual(['adjustment', 'buffer', 'registry']);
    expect(changedSince(-1)).toHaveLength(2 + 5 + 5 + 3);

    // a retirement from A's inventory: its project's totals, the retirement, nothing else
    let before = seqNow();
    const { retirementId } = ops.retireFromInventory(registry, {
      organizationId: f.orgA,
      creditId: f.creditId,
      amount: 10,
      beneficiary: 'B',
      reason: 'R',
    });
    expect(seqNow()).toBeGreaterThan(before);
    expect(changedSince(before)).toEqual([`project:${f.projectId}`, `retirement:${retirementId}`]);

    // a deposit: A's warehouse and the project's totals
    before = seqNow();
    ops.depositToWarehouse(registry, { organizationId: f.orgA, creditId: f.creditId, amount: 5 });
    expect(changedSince(before)).toEqual([`project:${f.projectId}`, `warehouse:${f.orgA}`]);

    // a new issuance changes the supply every holder shows: the buffer holds part of it
    before = seqNow();
    ops.issueCredits(registry, {
      projectId: f.projectId,
      vintage: '2022',
      amount: 100,
      bufferBasisPoints: 1000,
      monitoringPeriodStart: '2022-01-01',
      monitoringPeriodEnd: '2022-12-31',
      verificationBodyId: f.validatorId,
    });
    expect(changedSince(before)).toEqual(expect.arrayContaining(['inventory:buffer', `project:${f.projectId}`, `warehouse:${f.orgA}`]));

    // A loses its verification: its record, its projects, its retirements (now unclaimed), its warehouse
    before = seqNow();
    ops.setOrganizationVerified(registry, { organizationId: f.orgA, verified: false });
    expect(changedSince(before)).toEqual(
      [
        `organization:${f.orgA}`,
        `project:${f.projectId}`,
        `project:${f.draftProjectId}`,
        `retirement:${retirementId}`,
        `warehouse:${f.orgA}`,
      ].sort(),
    );

    // a transaction that fails changes nothing, the sequence included
    before = seqNow();
    expect(() =>
      registry.db.transaction(() => {
        ops.changeProjectStatus(registry, { projectId: f.draftProjectId, status: 'submitted' });
        throw new Error('abort');
      }),
    ).toThrow('abort');
    expect(seqNow()).toBe(before);
    expect(changedSince(before)).toEqual([]);
  });
});
