// The first sync's load into an empty cache is committed without SQLite's checkpoint on the spot:
// its WAL is copied into the database file afterwards, in the background (cache/deferred-checkpoint.ts).
// Checked on real cache files: the database file does not grow at the commit and holds the load
// once the background checkpoint settles, automatic checkpoints come back after it (and after a
// load that rolls back), and closing the cache while it runs leaves a whole cache.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openDeskCache, type DeskCache } from '@desk/cache';
import { checkpointWal, setCheckpointElsewhere } from '@desk/cache/deferred-checkpoint';
import { makeDataDir } from '@test/support/registry';
import { commitAndCloseAtOnce, loadRetirements } from '@test/support/snapshot-retirements';

const work = makeDataDir('desk-deferred-checkpoint-');
afterAll(() => work.remove());

let files = 0;
const newCache = () => {
  const file = join(work.dir, `cache-${files++}.sqlite`);
  return { file, cache: openDeskCache(file) };
};

/** A load of `n` retirements (about 1 kB each with their search entries), finished. */
const load = (cache: DeskCache, n: number) => loadRetirements(cache, n, { projectNamePadding: 400 });

const autocheckpoint = (cache: DeskCache) => cache.db.raw.pragma('wal_autocheckpoint', { simple: true });
const count = (cache: DeskCache) => cache.db.raw.prepare('SELECT count(*) FROM retirements').pluck().get();

describe('the first load checkpoint, deferred', () => {
  it('commits into the WAL only, then copies it into the database file in the background', async () => {
    const { file, cache } = newCache();
    const before = statSync(file).size;
    // Enough rows for more WAL frames than an automatic checkpoint lets pile up (1,000 pages of 16 KiB).
    const rows = 6000;
    const done = load(cache, rows).commit();
    // Committed and readable, but not yet in the database file, and no checkpoint on this connection meanwhile.
    expect(count(cache)).toBe(rows);
    expect(statSync(file).size).toBe(before);
    expect(autocheckpoint(cache)).toBe(0);
    await done;
    expect(statSync(file).size).toBeGreaterThan(before + rows * 500);
    expect(autocheckpoint(cache)).toBe(1000);
    // Every frame is in the database file: a checkpoint now has nothing left to copy, and the next
    // write starts the WAL again from its beginning.
    const checkpoint = () => (cache.db.raw.pragma('wal_checkpoint(PASSIVE)') as { log: number; checkpointed: number }[])[0]!;
    const after = checkpoint();
    expect(after.log).toBeGreaterThan(1000);
    expect(after.checkpointed).toBe(after.log);
    cache.db.raw.prepare('UPDATE sync_state SET total = 1').run();
    expect(checkpoint().log).toBeLessThan(10);
    cache.close();
  });

  it('gives automatic checkpoints back when the load rolls back', () => {
    const { cache } = newCache();
    const snapshot = load(cache, 10);
    expect(autocheckpoint(cache)).toBe(0);
    snapshot.rollback();
    expect(autocheckpoint(cache)).toBe(1000);
    expect(count(cache)).toBe(0);
    cache.close();
  });

  it('holds checkpoints off for a seed-interface first sync into an empty cache only', async () => {
    const { file, cache } = newCache();
    const end = cache.write.deferCheckpointsIfEmpty()!;
    expect(autocheckpoint(cache)).toBe(0);
    // Held already: no second hold.
    expect(cache.write.deferCheckpointsIfEmpty()).toBeNull();
    const before = statSync(file).size;
    cache.write.beginStaging('retirements');
    cache.write.stage('retirements', [{ id: 'r-1', hash: 'h', json: JSON.stringify({ id: 'r-1', x: 'y'.repeat(8000) }) }]);
    expect(statSync(file).size).toBe(before);
    await end();
    expect(autocheckpoint(cache)).toBe(1000);
    expect(statSync(file).size).toBeGreaterThan(before);
    await load(cache, 1).commit();
    expect(cache.write.deferCheckpointsIfEmpty()).toBeNull();
    cache.close();
  });

  it('leaves a whole cache when it is closed while the checkpoint runs', async () => {
    const { file, cache } = newCache();
    await commitAndCloseAtOnce(cache, load(cache, 2000));
    const reopened = openDeskCache(file);
    expect(count(reopened)).toBe(2000);
    expect(reopened.db.raw.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(autocheckpoint(reopened)).toBe(1000);
    reopened.close();
  });
});

// Where the sync runs in its worker thread, the checkpoint is checkpointWal on a connection of its
// own (sync/worker/entry.ts): here on this thread, as the host's checkpointer worker would.
describe('the first load checkpoint on a connection of its own', () => {
  const walSize = (file: string) => statSync(`${file}-wal`).size;

  it('copies the WAL into the database file and cuts it to nothing, so no later write has to', async () => {
    const { file, cache } = newCache();
    setCheckpointElsewhere(cache.db, () => Promise.resolve(checkpointWal(file)));
    const rows = 6000;
    const before = statSync(file).size;
    await load(cache, rows).commit();
    expect(walSize(file)).toBe(0);
    expect(statSync(file).size).toBeGreaterThan(before + rows * 500);
    expect(count(cache)).toBe(rows);
    expect(autocheckpoint(cache)).toBe(1000);
    cache.db.raw.prepare('UPDATE sync_state SET total = 1').run();
    expect(walSize(file)).toBeLessThan(1 << 20);
    cache.close();
    const reopened = openDeskCache(file);
    expect(count(reopened)).toBe(rows);
    expect(reopened.db.raw.pragma('integrity_check', { simple: true })).toBe('ok');
    reopened.close();
  });

  it('leaves the WAL whole to a reader still on the load’s snapshot, and the cache whole', async () => {
    const { file, cache } = newCache();
    const reader = new BetterSqlite3(file, { readonly: true });
    const rows = 3000;
    setCheckpointElsewhere(cache.db, () => {
      // A read transaction begun after the commit reads the load from the WAL.
      reader.exec('BEGIN');
      expect(reader.prepare('SELECT count(*) FROM retirements').pluck().get()).toBe(rows);
      checkpointWal(file);
      return Promise.resolve();
    });
    await load(cache, rows).commit();
    // Copied, but not cut under the reader's feet: its snapshot still reads every row.
    expect(walSize(file)).toBeGreaterThan(rows * 500);
    expect(reader.prepare('SELECT count(*) FROM retirements').pluck().get()).toBe(rows);
    reader.exec('COMMIT');
    reader.close();
    cache.db.raw.prepare('UPDATE sync_state SET total = 1').run();
    expect(count(cache)).toBe(rows);
    expect(cache.db.raw.pragma('integrity_check', { simple: true })).toBe('ok');
    cache.close();
  });
});
