// Migration 0014 (the transparency log) on a database made by a version-13 registry: the movements
// and audit entries already there become leaves in time order, every new write appends its leaf in
// its own transaction, a rolled-back write leaves none, and the database check (verify-log) finds
// the log whole, then finds a row rewritten behind the triggers' back.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@platform/clock';
import { openSqlite } from '@platform/db/open';
import { appendAudit } from '@registry/audit';
import type { RegistryContext } from '@registry/context';
import { registryMigrations } from '@registry/migrations';
import { openRegistry, REGISTRY_DB_FILE } from '@registry/open';
import * as ops from '@registry/operations';
import type { RegistryTables } from '@registry/schema';
import { encodeLeaf, leafHashHex } from '@registry/transparency/leaf';
import { signCheckpoint } from '@registry/transparency/checkpoints';
import { logSize, syncedTree } from '@registry/transparency/tree';
import { verifyLogDatabase } from '@registry/transparency/verify-database';
import { MerkleTree } from '@shared/transparency/merkle';
import { toBase64 } from '@shared/transparency/bytes';
import { makeDataDir } from '@test/support/registry';
import { stockWarehouse } from '@test/support/stocked-warehouse';
import { MINIMAL_LEDGER_OWNERS_SQL } from '@test/support/minimal-ledger';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));
const NOW = Date.parse('2024-01-01T12:00:00Z');

function stock(ctx: RegistryContext, name: string) {
  const validator = ops.createOrganization(ctx, {
    fullName: `${name} VVB`,
    type: 'validationVerificationBody',
    countryCode: 'GB',
    verified: true,
  });
  const owner = ops.createOrganization(ctx, { fullName: name, countryCode: 'KE', verified: true });
  return stockWarehouse(ctx, {
    organizationId: owner.id,
    verificationBodyId: validator.id,
    projectName: name,
    vintages: ['2021'],
    issue: 100,
    deposit: 40,
  });
}

/** The leaves with their bytes, encoded again from the rows they name (only hashes are stored since migration 0015). */
const leaves = (ctx: RegistryContext) =>
  (
    ctx.db.prepare('SELECT idx, kind, ref, hash FROM tlog_leaves ORDER BY idx').all() as {
      idx: number;
      kind: 'movement' | 'audit';
      ref: string;
      hash: string;
    }[]
  ).map((leaf) => {
    const source = leaf.kind === 'movement' ? 'SELECT * FROM movements WHERE id = ?' : 'SELECT * FROM audit_log WHERE id = ?';
    const row = ctx.db.prepare(source).get(leaf.ref) as Record<string, unknown>;
    return { ...leaf, data: encodeLeaf(leaf.kind, row) };
  });

describe('migration 0014: the transparency log', () => {
  it('logs the rows of a version-13 database in time order, then every new write', () => {
    const data = makeDataDir();
    cleanups.push(data.remove);
    const clock = new ManualClock(NOW);
    const { db } = openSqlite<RegistryTables>(join(data.dir, REGISTRY_DB_FILE), { migrations: registryMigrations.slice(0, 13) });
    // what a version-13 registry wrote, by its SQL (today's code would log it already)
    db.raw.exec(`
      ${MINIMAL_LEDGER_OWNERS_SQL}
      INSERT INTO movements (credit_id, kind, from_account, to_account, amount, created_at) VALUES ('c', 'issue', NULL, 'a1', 1000, ${NOW});
      INSERT INTO audit_log (id, at, actor, action, outcome) VALUES ('e0', ${NOW}, 'cli:root', 'issueCredits', 'succeeded');
      INSERT INTO movements (credit_id, kind, from_account, to_account, amount, created_at) VALUES ('c', 'deposit', 'a1', 'a2', 400, ${NOW + 500});
      INSERT INTO audit_log (id, at, actor, action, outcome) VALUES ('e1', ${NOW + 1000}, 'cli:root', 'deposit', 'succeeded');
      INSERT INTO movements (credit_id, kind, from_account, to_account, amount, created_at) VALUES ('c', 'retire', 'a2', NULL, 1, ${NOW + 1000});
    `);
    const movements = (db.raw.prepare('SELECT COUNT(*) AS n FROM movements').get() as { n: number }).n;
    expect(movements).toBeGreaterThan(0);
    db.close();

    clock.advance(1000);
    const registry = openRegistry({ dataDir: data.dir, clock });
    cleanups.unshift(() => registry.close());
    expect(registry.migration).toMatchObject({ from: 13, to: registryMigrations.length });
    const backfilled = leaves(registry);
    expect(backfilled.map((l) => l.idx)).toEqual([...backfilled.keys()]);
    // in time order; at one instant a transaction's movements come before its audit entry
    expect(backfilled.map((l) => `${l.kind} ${l.ref}`)).toEqual(['movement 1', 'audit e0', 'movement 2', 'movement 3', 'audit e1']);
    expect(movements).toBe(3);
    const first = registry.db.prepare('SELECT * FROM movements ORDER BY id LIMIT 1').get() as Record<string, unknown>;
    expect(backfilled[0]!.data).toBe(encodeLeaf('movement', first));
    expect(JSON.parse(backfilled[0]!.data)).toEqual({ id: String(first.id), kind: 'movement', row: first });
    for (const leaf of backfilled) expect(leaf.hash).toBe(leafHashHex(leaf.data));

    // each new write appends its leaves in its own transaction; a refused one appends nothing
    stock(registry, 'After');
    const after = leaves(registry);
    expect(after.length).toBeGreaterThan(backfilled.length);
    expect(after.map((l) => l.idx)).toEqual([...after.keys()]);
    expect(() =>
      registry.db.transaction(() => {
        appendAudit(registry, { operatorId: null, actor: 'cli:root', action: 'x', targetIds: [], outcome: 'succeeded', detail: {} });
        throw new Error('rolled back');
      }),
    ).toThrow('rolled back');
    expect(leaves(registry)).toHaveLength(after.length);
    expect(logSize(registry)).toBe(after.length);

    // the served tree is the RFC 9162 tree of the leaf bytes; the database check finds it whole
    const reference = new MerkleTree();
    for (const leaf of after) reference.append(Buffer.from(leaf.data, 'utf8'));
    const checkpoint = signCheckpoint(registry);
    expect(checkpoint.size).toBe(after.length);
    expect(checkpoint.root).toBe(toBase64(reference.root()));
    expect(toBase64(syncedTree(registry).root())).toBe(checkpoint.root);
    expect(verifyLogDatabase(registry)).toEqual({ leaves: after.length, checkpoints: 1, problems: [] });
  });

  it('refuses to edit the log, and the check finds a row rewritten behind the triggers', () => {
    const data = makeDataDir();
    cleanups.push(data.remove);
    const registry = openRegistry({ dataDir: data.dir, clock: new ManualClock(NOW) });
    cleanups.unshift(() => registry.close());
    stock(registry, 'Tamper');
    signCheckpoint(registry);
    const raw = registry.db.raw;
    expect(() => raw.prepare('UPDATE tlog_leaves SET hash = ?').run('0'.repeat(64))).toThrow('append-only');
    expect(() => raw.prepare('DELETE FROM tlog_checkpoints').run()).toThrow('append-only');
    // Whoever holds the file can drop the guard against INSERT OR REPLACE (migration 0012) first;
    // INSERT OR REPLACE then deletes and re-inserts without firing DELETE triggers (recursive_triggers off)
    raw.exec('DROP TRIGGER movements_append_only_replace');
    raw
      .prepare(
        `INSERT OR REPLACE INTO movements (id, credit_id, kind, from_account, to_account, amount, created_at, reference)
       SELECT id, credit_id, kind, from_account, to_account, amount + 1, created_at, reference FROM movements WHERE kind = 'deposit'`,
      )
      .run();
    const { problems } = verifyLogDatabase(registry);
    expect(problems.some((p) => /movement \d+ was rewritten after it was logged/.test(p))).toBe(true);
    expect(problems.some((p) => /rows give another root than it signed/.test(p))).toBe(true);
  });
});
