// Migration 0017 (BEFORE INSERT guards on the transparency log's tables) on a database a version-16
// registry left, with leaves, a signed checkpoint and the log's key in it: INSERT OR REPLACE can no
// longer rewrite a leaf, the head, a checkpoint or the key (it could, past 0014's UPDATE and DELETE
// triggers), and the registry's own inserts still go in. A dropped guard is refused at open by
// migration-0012.test.ts, which walks every name in GUARD_TRIGGERS.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@platform/clock';
import { openSqlite } from '@platform/db/open';
import { appendAudit } from '@registry/audit';
import { defaultNewId, type RegistryContext } from '@registry/context';
import { registryMigrations } from '@registry/migrations';
import { openRegistry, REGISTRY_DB_FILE } from '@registry/open';
import type { RegistryTables } from '@registry/schema';
import { signCheckpoint } from '@registry/transparency/checkpoints';
import { verifyLogDatabase } from '@registry/transparency/verify-database';
import { buildFixture } from '@test/support/fixture';
import { makeDataDir } from '@test/support/registry';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));
const NOW = Date.parse('2024-01-01T12:00:00Z');
const urls = { apiBaseUrl: 'http://127.0.0.1', publicBaseUrl: 'https://r.example' };

describe('migration 0017: the transparency log refuses replaced rows', () => {
  it('upgrades a version-16 database; INSERT OR REPLACE rewrites no leaf, checkpoint or key', () => {
    const data = makeDataDir();
    cleanups.push(data.remove);
    const { db } = openSqlite<RegistryTables>(join(data.dir, REGISTRY_DB_FILE), { migrations: registryMigrations.slice(0, 16) });
    const ctx: RegistryContext = { db, clock: new ManualClock(NOW), newId: defaultNewId, urls };
    buildFixture(ctx as Parameters<typeof buildFixture>[0]);
    signCheckpoint(ctx);
    db.close();

    const registry = openRegistry({ dataDir: data.dir, clock: new ManualClock(NOW), urls });
    cleanups.unshift(() => registry.close());
    expect(registry.migration).toMatchObject({ from: 16, to: registryMigrations.length });
    const raw = registry.db.raw;
    const rows = (table: string) => raw.prepare(`SELECT * FROM ${table} ORDER BY 1`).all();
    // the head row's own guard went with it: migration 0018 drops the head on SQLite
    const before = Object.fromEntries(['tlog_leaves', 'tlog_checkpoints', 'tlog_key'].map((t) => [t, rows(t)]));
    expect(before.tlog_leaves!.length).toBeGreaterThan(0);
    expect(before.tlog_checkpoints).toHaveLength(1);

    // the leaves: refused outright
    expect(() =>
      raw
        .prepare(`INSERT OR REPLACE INTO tlog_leaves (idx, kind, ref, hash) SELECT idx, kind, ref, ? FROM tlog_leaves WHERE idx = 0`)
        .run('0'.repeat(64)),
    ).toThrow(/the transparency log is append-only/);
    // (a second leaf for one record at a new index is no longer refused at insert since migration
    // 0019, which dropped the (kind, ref) index: the database check reports it, migration-0019.test.ts)
    // the checkpoints and the key: the stored row stays (their own inserts race with ON CONFLICT DO NOTHING)
    raw
      .prepare(`INSERT OR REPLACE INTO tlog_checkpoints (size, root, at, note) SELECT size, 'forged', at, 'forged' FROM tlog_checkpoints`)
      .run();
    raw
      .prepare(
        `INSERT OR REPLACE INTO tlog_key (one, name, public_key, private_key, created_at) SELECT one, 'forged', public_key, private_key, created_at FROM tlog_key`,
      )
      .run();
    for (const [table, stored] of Object.entries(before)) expect(rows(table), table).toEqual(stored);

    // the registry's own appends and checkpoints still go in, and the log verifies
    registry.db.transaction(() => {
      for (let i = 0; i < 3; i++)
        appendAudit(registry, { operatorId: null, actor: 'cli:test', action: 'x', targetIds: [], outcome: 'succeeded', detail: { i } });
    });
    (registry.clock as ManualClock).advance(10_000);
    expect(signCheckpoint(registry).size).toBeGreaterThan(before.tlog_leaves!.length);
    expect(verifyLogDatabase(registry).problems).toEqual([]);
  });
});
