// Migration 0019 on SQLite: the transparency log's leaves have no (kind, ref) index any more (a write
// pays no index page for it); a record's leaf is found through tlog_refs, filled when a checkpoint is
// signed, plus the leaves written since. Every lookup still answers, a long unindexed tail is indexed
// by the lookup itself, and a record logged twice, which no index refuses now, is reported by the
// database check.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@platform/clock';
import { openSqlite } from '@platform/db/open';
import { appendAudit } from '@registry/audit';
import { defaultNewId, type RegistryContext } from '@registry/context';
import { registryMigrations } from '@registry/migrations';
import { openRegistry, REGISTRY_DB_FILE, type OpenedRegistry } from '@registry/open';
import type { RegistryTables } from '@registry/schema';
import { signCheckpoint } from '@registry/transparency/checkpoints';
import { findLeafIndex } from '@registry/transparency/proofs';
import { TAIL_LIMIT } from '@registry/transparency/refs';
import { verifyLogDatabase } from '@registry/transparency/verify-database';
import { buildFixture } from '@test/support/fixture';
import { makeDataDir } from '@test/support/registry';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));
const NOW = Date.parse('2024-01-01T12:00:00Z');
const urls = { apiBaseUrl: 'http://127.0.0.1', publicBaseUrl: 'https://r.example' };

type Leaf = { idx: number; kind: 'movement' | 'audit'; ref: string; hash: string };

/** A registry opened on the data folder a version-18 registry left (the fixture, one checkpoint). */
function upgradedFrom18(): { registry: OpenedRegistry; before: Leaf[] } {
  const data = makeDataDir();
  cleanups.push(data.remove);
  const { db } = openSqlite<RegistryTables>(join(data.dir, REGISTRY_DB_FILE), { migrations: registryMigrations.slice(0, 18) });
  const ctx: RegistryContext = { db, clock: new ManualClock(NOW), newId: defaultNewId, urls };
  buildFixture(ctx as Parameters<typeof buildFixture>[0]);
  signCheckpoint(ctx);
  const before = db.raw.prepare('SELECT idx, kind, ref, hash FROM tlog_leaves ORDER BY idx').all() as Leaf[];
  db.close();
  const registry = openRegistry({ dataDir: data.dir, clock: new ManualClock(NOW + 10_000), urls });
  cleanups.unshift(() => registry.close());
  expect(registry.migration).toMatchObject({ from: 18, to: registryMigrations.length });
  return { registry, before };
}

const entries = (ctx: RegistryContext, n: number) =>
  ctx.db.transaction(() =>
    Array.from({ length: n }, (_, i) =>
      appendAudit(ctx, { operatorId: null, actor: 'cli:test', action: 'x', targetIds: [], outcome: 'succeeded', detail: { i } }),
    ),
  );
const refsCount = (r: OpenedRegistry) => (r.db.raw.prepare('SELECT COUNT(*) AS n FROM tlog_refs').get() as { n: number }).n;
const lastAuditId = (r: OpenedRegistry) =>
  (r.db.raw.prepare('SELECT id FROM audit_log ORDER BY seq DESC LIMIT 1').get() as { id: string }).id;

describe('migration 0019: a record’s leaf is found without an index on every write', () => {
  it('keeps every leaf, drops the (kind, ref) index, and still finds old and new records', () => {
    const { registry, before } = upgradedFrom18();
    const raw = registry.db.raw;
    expect(raw.prepare('SELECT idx, kind, ref, hash FROM tlog_leaves ORDER BY idx').all()).toEqual(before);
    expect(raw.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'tlog_leaves'`).all()).toEqual([]);
    expect(refsCount(registry)).toBe(before.length);
    for (const leaf of [before[0]!, before.find((l) => l.kind === 'movement')!, before.at(-1)!])
      expect(findLeafIndex(registry, leaf.kind, leaf.ref)).toBe(leaf.idx);

    // written after the last checkpoint: not indexed yet, found among the leaves since
    entries(registry, 3);
    expect(refsCount(registry)).toBe(before.length);
    expect(findLeafIndex(registry, 'audit', lastAuditId(registry))).toBe(before.length + 2);
    expect(findLeafIndex(registry, 'audit', 'no-such-entry')).toBeUndefined();
    expect(findLeafIndex(registry, 'movement', '999999')).toBeUndefined();
    // the next checkpoint indexes them
    expect(signCheckpoint(registry).size).toBe(before.length + 3);
    expect(refsCount(registry)).toBe(before.length + 3);
    expect(findLeafIndex(registry, 'audit', lastAuditId(registry))).toBe(before.length + 2);
    expect(verifyLogDatabase(registry)).toEqual({ leaves: before.length + 3, checkpoints: 2, problems: [] });
  });

  it('indexes a tail longer than TAIL_LIMIT at the lookup, so no lookup scans more', () => {
    const { registry, before } = upgradedFrom18();
    // leaves alone (their rows do not matter to a lookup), written in one statement to be quick
    registry.db.raw
      .prepare(
        `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
         INSERT INTO tlog_leaves (idx, kind, ref, hash) SELECT ? + i, 'audit', 'bulk-' || i, ? FROM n`,
      )
      .run(TAIL_LIMIT, before.length, before[0]!.hash);
    expect(refsCount(registry)).toBe(before.length);
    expect(findLeafIndex(registry, 'audit', `bulk-${TAIL_LIMIT}`)).toBe(before.length + TAIL_LIMIT);
    expect(refsCount(registry)).toBe(before.length + TAIL_LIMIT + 1);
  });

  it('reports a record logged twice, and still refuses a leaf written over another', () => {
    const { registry, before } = upgradedFrom18();
    const raw = registry.db.raw;
    const first = before[0]!;
    expect(() =>
      raw.prepare('INSERT OR REPLACE INTO tlog_leaves (idx, kind, ref, hash) VALUES (?, ?, ?, ?)').run(0, 'audit', 'x', first.hash),
    ).toThrow('append-only');
    // the same record again, at the end of the log: no gap, no index to refuse it
    raw.prepare('INSERT INTO tlog_leaves (idx, kind, ref, hash) VALUES (?, ?, ?, ?)').run(before.length, first.kind, first.ref, first.hash);
    expect(verifyLogDatabase(registry).problems).toEqual([`leaf ${before.length}: the ${first.kind} ${first.ref} is logged a second time`]);
    // the lookup keeps naming the first leaf, indexed or not
    expect(findLeafIndex(registry, first.kind, first.ref)).toBe(first.idx);
    signCheckpoint(registry);
    expect(findLeafIndex(registry, first.kind, first.ref)).toBe(first.idx);
  });
});
