// A first sync's load leaves the indexes it has not built by its commit to be built after it
// (cache/deferred-indexes.ts). Checked on real cache files: the commit records the retirements'
// seven indexes instead of building them, every sort of the retirements list answers the same rows
// before and after they are built, the background build creates and analyzes them, a load that
// rolls back records nothing, and a cache closed before the build, or a desk killed right after its
// commit, keeps them recorded for the next build, which a second build then finds done.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RetirementSearchInput } from '@shared/desk/api';
import { openDeskCache, type DeskCache } from '@desk/cache';
import { makeDataDir } from '@test/support/registry';
import { commitAndCloseAtOnce, loadRetirements } from '@test/support/snapshot-retirements';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const SUPPORT = join(ROOT, 'test', 'support');
const work = makeDataDir('desk-deferred-indexes-');
afterAll(() => work.remove());

let files = 0;
const newFile = () => join(work.dir, `cache-${files++}.sqlite`);
const newCache = () => {
  const file = newFile();
  return { file, cache: openDeskCache(file) };
};

const RETIREMENT_INDEXES = [
  'retirements_by_amount',
  'retirements_by_beneficiary',
  'retirements_by_claimed',
  'retirements_by_project',
  'retirements_by_project_name',
  'retirements_by_time',
  'retirements_by_vintage',
];

const indexesOf = (cache: DeskCache) =>
  cache.db.raw
    .prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'retirements' AND sql IS NOT NULL ORDER BY name")
    .pluck()
    .all();
/** The recorded indexes of the retirements (a load with no inventory page defers the inventory credits' too). */
const deferred = (cache: DeskCache) =>
  cache.db.raw.prepare("SELECT name FROM deferred_indexes WHERE table_name = 'retirements' ORDER BY name").pluck().all();
/** Every index of the cache, by name. */
const allIndexes = (cache: DeskCache) =>
  cache.db.raw.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL ORDER BY name").pluck().all();
const analyzed = (cache: DeskCache) =>
  cache.db.raw
    .prepare("SELECT DISTINCT idx FROM sqlite_stat1 WHERE tbl = 'retirements' AND idx LIKE 'retirements_by_%' ORDER BY idx")
    .pluck()
    .all();

/** Every sort of the retirements list, with the searches that walk a sort index (no text, one initial). */
const SEARCHES: RetirementSearchInput[] = [
  ...(['createdAt', 'amount', 'beneficiary', 'project'] as const).flatMap((field) =>
    (['asc', 'desc'] as const).map((direction) => ({ sort: { field, direction }, limit: 25, offset: 10 })),
  ),
  { query: 'a', limit: 25 },
  { query: 'z', sort: { field: 'amount', direction: 'desc' }, limit: 25 },
  { filters: { claimed: true }, sort: { field: 'beneficiary', direction: 'asc' }, limit: 25, offset: 5 },
  { filters: { vintage: '2020' }, limit: 500 },
];
const answers = (cache: DeskCache) => SEARCHES.map((search) => cache.searchRetirements(search));

describe("a first sync's deferred indexes", () => {
  it('are recorded at the commit, the lists answering the same rows before and after the build', async () => {
    const { cache } = newCache();
    const every = allIndexes(cache);
    const done = loadRetirements(cache, 1500).commit();
    // Committed without them: recorded, not built, their table not analyzed yet.
    expect(indexesOf(cache)).toEqual([]);
    expect(deferred(cache)).toEqual(RETIREMENT_INDEXES);
    expect(analyzed(cache)).toEqual([]);
    const before = answers(cache);
    expect(before[0]!.total).toBe(1500);
    expect(before[0]!.rows).toHaveLength(25);

    await done;
    expect(indexesOf(cache)).toEqual(RETIREMENT_INDEXES);
    expect(cache.db.raw.prepare('SELECT count(*) FROM deferred_indexes').pluck().get()).toBe(0);
    expect(allIndexes(cache)).toEqual(every);
    expect(analyzed(cache)).toEqual(RETIREMENT_INDEXES);
    expect(answers(cache)).toEqual(before);
    // The sorts walk their indexes again.
    const plan = cache.db.raw
      .prepare('EXPLAIN QUERY PLAN SELECT id FROM retirements INDEXED BY retirements_by_amount ORDER BY amount LIMIT 5')
      .all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' ')).toContain('retirements_by_amount');
    // Nothing left: a second build finds nothing to do.
    expect(cache.write.buildDeferredIndexes()).toEqual([]);
    cache.close();
  });

  it('are not recorded by a load that rolls back', () => {
    const { cache } = newCache();
    const snapshot = loadRetirements(cache, 10);
    snapshot.rollback();
    expect(indexesOf(cache)).toEqual(RETIREMENT_INDEXES);
    expect(deferred(cache)).toEqual([]);
    cache.close();
  });

  it('stay recorded when the cache closes before the build, and are built by the next', async () => {
    const { file, cache } = newCache();
    await commitAndCloseAtOnce(cache, loadRetirements(cache, 300));

    const reopened = openDeskCache(file);
    expect(indexesOf(reopened)).toEqual([]);
    expect(deferred(reopened)).toEqual(RETIREMENT_INDEXES);
    const before = answers(reopened);
    expect(reopened.write.buildDeferredIndexes()).toEqual(expect.arrayContaining(RETIREMENT_INDEXES));
    expect(indexesOf(reopened)).toEqual(RETIREMENT_INDEXES);
    expect(deferred(reopened)).toEqual([]);
    expect(answers(reopened)).toEqual(before);
    expect(reopened.db.raw.pragma('integrity_check', { simple: true })).toBe('ok');
    reopened.close();
  });

  it('stay recorded when the desk is killed right after the commit, and are built by the next', async () => {
    const file = newFile();
    // A process of its own commits a load and blocks before its build's turn; then it is killed.
    const child = spawn(process.execPath, ['--import', 'tsx', join(SUPPORT, 'load-then-die.ts'), file, '400'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = once(child, 'exit');
    let out = '';
    for await (const chunk of child.stdout) {
      out += String(chunk);
      if (out.includes('committed')) break;
    }
    expect(out).toContain('committed');
    child.kill('SIGKILL');
    expect((await exited)[1]).toBe('SIGKILL');

    const reopened = openDeskCache(file);
    expect(reopened.db.raw.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(reopened.searchRetirements({ limit: 10 }).total).toBe(400);
    expect(indexesOf(reopened)).toEqual([]);
    expect(deferred(reopened)).toEqual(RETIREMENT_INDEXES);
    const before = answers(reopened);
    reopened.write.buildDeferredIndexes();
    expect(indexesOf(reopened)).toEqual(RETIREMENT_INDEXES);
    expect(answers(reopened)).toEqual(before);
    reopened.close();
  });

  it('wait while the connection is inside a transaction, and are built once by two connections', async () => {
    const { file, cache } = newCache();
    await commitAndCloseAtOnce(cache, loadRetirements(cache, 50));

    const first = openDeskCache(file);
    const second = openDeskCache(file);
    first.db.raw.exec('BEGIN');
    expect(first.write.buildDeferredIndexes()).toEqual([]);
    first.db.raw.exec('COMMIT');
    expect(second.write.buildDeferredIndexes()).toEqual(expect.arrayContaining(RETIREMENT_INDEXES));
    // The other connection reads them built.
    expect(first.write.buildDeferredIndexes()).toEqual([]);
    expect(indexesOf(first)).toEqual(RETIREMENT_INDEXES);
    first.close();
    second.close();
  });
});
