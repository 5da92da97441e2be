import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDeskCache, type DeskCache } from '@desk/cache';
import { buildIndexes, secondaryIndexesOf } from '@desk/cache/bulk-indexes';
import { makeDataDir } from '@test/support/registry';

const work = makeDataDir('desk-cache-bulk-indexes-');
afterAll(() => work.remove());

/** A cache with `rows` rows in a table of wide keys: about 1 kB of keys a row, 2 MB in 2,000 rows. */
function cacheWithRows(name: string, rows: number): DeskCache {
  const cache = openDeskCache(join(work.dir, `${name}.sqlite`));
  cache.db.raw.exec('CREATE TABLE wide (id INTEGER PRIMARY KEY, a TEXT, b TEXT)');
  const insert = cache.db.raw.prepare('INSERT INTO wide (a, b) VALUES (?, ?)');
  cache.db.raw.transaction(() => {
    // Keys in no order, so the sort has work: a, then b, each about 500 bytes.
    for (let i = 0; i < rows; i++) insert.run(`${(i * 7919) % rows}`.padStart(500, 'k'), `${i % 97}`.padStart(500, 'b'));
  })();
  return cache;
}

const settings = (cache: DeskCache) => ({
  cacheSize: cache.db.raw.pragma('cache_size', { simple: true }),
  threads: cache.db.raw.pragma('threads', { simple: true }),
});

describe('buildIndexes (a bulk load’s index builds, with a sort helper thread)', () => {
  it('builds indexes whose keys outgrow one sorted run, each matching its table', () => {
    // 12,000 rows: 12 MB of keys per index, several runs of 2 MB merged.
    const cache = cacheWithRows('built', 12_000);
    const before = settings(cache);
    const { raw } = cache.db;
    raw.exec('BEGIN IMMEDIATE');
    buildIndexes(cache.db, [{ sql: 'CREATE INDEX wide_by_a ON wide (a, b)' }, { sql: 'CREATE INDEX wide_by_b ON wide (b, a)' }]);
    raw.exec('COMMIT');
    expect(secondaryIndexesOf(cache.db, 'wide').map((i) => i.name)).toEqual(['wide_by_a', 'wide_by_b']);
    // Every index entry is its row's, in order (SQLite's own check of an index against its table).
    expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
    const byIndex = raw.prepare('SELECT id FROM wide INDEXED BY wide_by_a ORDER BY a, b, id').pluck().all();
    const sorted = raw.prepare('SELECT id FROM wide NOT INDEXED ORDER BY a, b, id').pluck().all();
    expect(byIndex).toEqual(sorted);
    expect(settings(cache)).toEqual(before);
    cache.close();
  });

  it('puts the page cache size and thread count back when a build fails, and builds nothing after it', () => {
    const cache = cacheWithRows('failed', 3_000);
    const before = settings(cache);
    const { raw } = cache.db;
    raw.exec('BEGIN IMMEDIATE');
    expect(() =>
      buildIndexes(cache.db, [
        // b repeats (97 values): a unique index on it cannot be built.
        { sql: 'CREATE UNIQUE INDEX wide_b_unique ON wide (b)' },
        { sql: 'CREATE INDEX wide_by_a ON wide (a)' },
      ]),
    ).toThrow(/UNIQUE constraint failed/);
    expect(settings(cache)).toEqual(before);
    expect(secondaryIndexesOf(cache.db, 'wide')).toEqual([]);
    raw.exec('ROLLBACK');
    cache.close();
  });
});
