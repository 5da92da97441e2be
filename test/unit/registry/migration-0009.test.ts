// Migration 0009 (rate-limit buckets) on a database made by a version-8 registry: what it held is
// kept, and the bucket table exists, empty, keyed by its key (the SQLite registry keeps its buckets
// in memory; the table is there so both engines share one schema).
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@platform/clock';
import { openSqlite } from '@platform/db/open';
import { registryMigrations } from '@registry/migrations';
import { openRegistry, REGISTRY_DB_FILE } from '@registry/open';
import type { RegistryTables } from '@registry/schema';
import { makeDataDir } from '@test/support/registry';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

describe('migration 0009: rate-limit buckets', () => {
  it('upgrades a version-8 database: data kept, an empty bucket table with one row per key', () => {
    const data = makeDataDir();
    cleanups.push(data.remove);
    const { db } = openSqlite<RegistryTables>(join(data.dir, REGISTRY_DB_FILE), { migrations: registryMigrations.slice(0, 8) });
    db.raw.prepare(`INSERT INTO settings (key, value) VALUES ('name', '"Kept"')`).run();
    db.close();

    const registry = openRegistry({ dataDir: data.dir, clock: new ManualClock(0) });
    cleanups.unshift(() => registry.close());
    expect(registry.migration).toMatchObject({ from: 8, to: registryMigrations.length });
    expect(registry.db.raw.prepare(`SELECT value FROM settings WHERE key = 'name'`).get()).toEqual({ value: '"Kept"' });
    expect(registry.db.raw.prepare('SELECT COUNT(*) AS n FROM rate_limit_buckets').get()).toEqual({ n: 0 });
    const insert = registry.db.raw.prepare('INSERT INTO rate_limit_buckets (key, tokens, updated_at) VALUES (?, ?, ?)');
    insert.run('app:a', 9.5, 1);
    expect(() => insert.run('app:a', 1, 2)).toThrow(/UNIQUE/);
  });
});
