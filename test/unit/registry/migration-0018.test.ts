// Migration 0018 on SQLite: the transparency log's size is its largest leaf index + 1, and the head
// row every logged write updated is gone. A version-17 database keeps every leaf and checkpoint, new
// writes go on at the end with no gap, and the database check still agrees. A head that disagrees
// with the leaves stops the migration, which then changes nothing.
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
import { logSize } from '@registry/transparency/tree';
import { verifyLogDatabase } from '@registry/transparency/verify-database';
import { buildFixture } from '@test/support/fixture';
import { makeDataDir } from '@test/support/registry';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));
const NOW = Date.parse('2024-01-01T12:00:00Z');
const urls = { apiBaseUrl: 'http://127.0.0.1', publicBaseUrl: 'https://r.example' };

/** A data folder a version-17 registry left: the fixture's rows, their leaves and one signed checkpoint. */
function version17(): { dir: string; leaves: number } {
  const data = makeDataDir();
  cleanups.push(data.remove);
  const { db } = openSqlite<RegistryTables>(join(data.dir, REGISTRY_DB_FILE), { migrations: registryMigrations.slice(0, 17) });
  const ctx: RegistryContext = { db, clock: new ManualClock(NOW), newId: defaultNewId, urls };
  buildFixture(ctx as Parameters<typeof buildFixture>[0]);
  const leaves = signCheckpoint(ctx).size;
  db.close();
  return { dir: data.dir, leaves };
}

const entry = (ctx: RegistryContext, i: number) =>
  appendAudit(ctx, { operatorId: null, actor: 'cli:test', action: 'x', targetIds: [], outcome: 'succeeded', detail: { i } });

describe('migration 0018: the log has no head row on SQLite', () => {
  it('drops the head; the log keeps its leaves and goes on from its largest index', () => {
    const { dir, leaves } = version17();
    expect(leaves).toBeGreaterThan(0);
    const registry = openRegistry({ dataDir: dir, clock: new ManualClock(NOW + 10_000), urls });
    cleanups.unshift(() => registry.close());
    expect(registry.migration).toMatchObject({ from: 17, to: registryMigrations.length });
    const raw = registry.db.raw;
    expect(raw.prepare(`SELECT name FROM sqlite_master WHERE name LIKE 'tlog_head%'`).all()).toEqual([]);
    expect(logSize(registry)).toBe(leaves);

    registry.db.transaction(() => [0, 1, 2].forEach((i) => entry(registry, i)));
    // a write that rolls back takes no index: the next one follows the last committed leaf
    expect(() =>
      registry.db.transaction(() => {
        entry(registry, 3);
        throw new Error('rolled back');
      }),
    ).toThrow('rolled back');
    registry.db.transaction(() => entry(registry, 4));
    const indexes = (raw.prepare('SELECT idx FROM tlog_leaves ORDER BY idx').all() as { idx: number }[]).map((l) => l.idx);
    expect(indexes).toEqual([...Array(leaves + 4).keys()]);
    expect(logSize(registry)).toBe(leaves + 4);
    expect(signCheckpoint(registry).size).toBe(leaves + 4);
    expect(verifyLogDatabase(registry)).toEqual({ leaves: leaves + 4, checkpoints: 2, problems: [] });

    // the leaves still refuse to be rewritten, so the size cannot move back through them
    expect(() => raw.prepare('DELETE FROM tlog_leaves WHERE idx = ?').run(leaves + 3)).toThrow('append-only');
  });

  it('refuses a head that disagrees with the leaves, and leaves the database as it was', () => {
    const { dir, leaves } = version17();
    const file = join(dir, REGISTRY_DB_FILE);
    // the head may grow past its leaves without tripping its guard: what a damaged file could hold
    const at17 = openSqlite<RegistryTables>(file, { migrations: registryMigrations.slice(0, 17) }).db;
    at17.raw.prepare('UPDATE tlog_head SET size = size + 1').run();
    at17.close();

    expect(() => openRegistry({ dataDir: dir, urls })).toThrow(
      new RegExp(`head says ${leaves + 1} leaves but ${leaves} are stored.*verify-log`),
    );
    const after = openSqlite<RegistryTables>(file, { migrations: registryMigrations.slice(0, 17) }).db;
    cleanups.unshift(() => after.close());
    expect(after.raw.pragma('user_version', { simple: true })).toBe(17);
    expect(after.raw.prepare('SELECT size FROM tlog_head').get()).toEqual({ size: leaves + 1 });
  });
});
