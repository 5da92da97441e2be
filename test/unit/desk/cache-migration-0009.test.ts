// Cache migration 0009: the indexes a first sync's load left to build after its commit are recorded
// in deferred_indexes (cache/deferred-indexes.ts), one row per index name; an existing cache keeps
// its rows and indexes and starts with none recorded.
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '@platform/db/migrate';
import { cacheMigrations } from '@desk/cache/migrations';

describe('cache migration 0009 (the deferred indexes)', () => {
  it('adds an empty deferred_indexes to a version-8 cache, its rows and indexes kept, one row per index', () => {
    const db = new BetterSqlite3(':memory:');
    migrate(db, cacheMigrations.slice(0, 8));
    const indexes = () => db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' ORDER BY name").pluck().all();
    db.prepare("INSERT INTO sync_state (resource, watermark) VALUES ('feed', 'c1')").run();
    const before = indexes();
    migrate(db, cacheMigrations.slice(0, 9));

    expect(db.prepare('SELECT resource, watermark FROM sync_state').all()).toEqual([{ resource: 'feed', watermark: 'c1' }]);
    expect(indexes()).toEqual(before);
    expect(db.prepare('SELECT count(*) FROM deferred_indexes').pluck().get()).toBe(0);
    const record = db.prepare('INSERT INTO deferred_indexes (name, table_name, sql) VALUES (?, ?, ?)');
    record.run('retirements_by_time', 'retirements', 'CREATE INDEX retirements_by_time ON retirements (created_at, id)');
    expect(() => record.run('retirements_by_time', 'retirements', 'CREATE INDEX …')).toThrow(/UNIQUE|PRIMARY KEY/);
    expect(() => record.run('x', null, 'CREATE INDEX x ON t (a)')).toThrow(/NOT NULL/);
    db.close();
  });
});
