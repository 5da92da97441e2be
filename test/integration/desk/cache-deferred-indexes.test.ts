// A first sync's load leaves the indexes it has not built by its commit, and the retirements'
// search entries, to be made after it (cache/deferred-indexes.ts). Checked on real cache files: the
// commit records the retirements' seven indexes and their search table instead of building them,
// every sort of the retirements list answers the same rows before and after they are built, a text
// search refuses until its entries are made and then finds what a search of a cache synced through
// the seed's interface finds, the background build makes them (in a transaction of their own, kept
// when the indexes after them fail) and analyzes the table, a retirement written through before
// the build keeps one entry, a load that rolls back records nothing, and a cache closed before the
// build, or a desk killed right after its commit, keeps them recorded for the next build, which a
// second build then finds done.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RetirementSearchInput } from '@shared/desk/api';
import type { Retirement } from '@shared/registry/resources';
import { openDeskCache, type DeskCache } from '@desk/cache';
import { SearchEntriesPending } from '@desk/cache/deferred-indexes';
import { makeDataDir } from '@test/support/registry';
import { searchEntriesById } from '@test/support/search-entries';
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
/** What the load leaves for the retirements: their indexes and their search table. */
const RETIREMENT_DEFERRED = [...RETIREMENT_INDEXES, 'retirements_fts'];

const indexesOf = (cache: DeskCache) =>
  cache.db.raw
    .prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'retirements' AND sql IS NOT NULL ORDER BY name")
    .pluck()
    .all();
/** What is recorded for the retirements (a load with no inventory page defers the inventory credits' indexes too). */
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

/** Searches by words (the search entries'), each with its vintages' counts. */
const TEXTS = ['acme', 'zurich', 'ŁÓDŹ', 'ålesund kommune', 'project 1', 's 12', 'bravo 20'];
const found = (cache: DeskCache) =>
  TEXTS.map((query) => {
    const { asOf: _asOf, ...list } = cache.searchRetirements({ query, limit: 500 });
    return { list, vintages: cache.retirementFacets(query) };
  });
const entries = (cache: DeskCache) => searchEntriesById(cache.db.raw, 'retirements_fts', 'SELECT rowid, id FROM retirements');
/** The same retirements written one by one, as a sync through the seed's interface writes them, into a cache of its own. */
function writtenRowByRow(cache: DeskCache): DeskCache {
  const other = openDeskCache(newFile());
  for (const json of cache.db.raw.prepare('SELECT json FROM retirements ORDER BY id').pluck().all() as string[])
    other.write.putRetirement(JSON.parse(json) as Retirement);
  return other;
}

describe("a first sync's deferred indexes", () => {
  it('are recorded at the commit, the lists answering the same rows before and after the build', async () => {
    const { cache } = newCache();
    const every = allIndexes(cache);
    const done = loadRetirements(cache, 1500).commit();
    // Committed without them: recorded, not built, their table not analyzed yet.
    expect(indexesOf(cache)).toEqual([]);
    expect(deferred(cache)).toEqual(RETIREMENT_DEFERRED);
    expect(analyzed(cache)).toEqual([]);
    const before = answers(cache);
    expect(before[0]!.total).toBe(1500);
    expect(before[0]!.rows).toHaveLength(25);
    // A search by words refuses until its entries are made, rather than answer other rows.
    expect(() => cache.searchRetirements({ query: 'acme', limit: 5 })).toThrow(SearchEntriesPending);
    expect(() => cache.retirementFacets('acme')).toThrow(SearchEntriesPending);

    await done;
    const seedWay = writtenRowByRow(cache);
    expect(entries(cache)).toEqual(entries(seedWay));
    expect(found(cache)).toEqual(found(seedWay));
    expect(found(cache).map((f) => f.list.total)).toEqual([300, 300, 300, 300, 1088, 322, 2]);
    seedWay.close();
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

  it('leave one search entry to a retirement written through before the build', async () => {
    const { file, cache } = newCache();
    await commitAndCloseAtOnce(cache, loadRetirements(cache, 40));
    const reopened = openDeskCache(file);
    const existing = JSON.parse(
      reopened.db.raw.prepare('SELECT json FROM retirements WHERE rowid = 7').pluck().get() as string,
    ) as Retirement;
    // A finalized retirement written through (writes.ts): one the load brought, and a new one.
    reopened.write.putRetirement({ ...existing, beneficiary: 'Quokka Trust' });
    reopened.write.putRetirement({ ...existing, id: '00000000-0000-4000-8000-999999999999', beneficiary: 'Wombat Fund' });
    expect(() => reopened.searchRetirements({ query: 'quokka', limit: 5 })).toThrow(SearchEntriesPending);

    reopened.write.buildDeferredIndexes();
    expect(reopened.searchRetirements({ query: 'quokka', limit: 5 }).rows.map((r) => r.id)).toEqual([existing.id]);
    expect(reopened.searchRetirements({ query: 'wombat', limit: 5 }).total).toBe(1);
    expect(reopened.searchRetirements({ query: (existing as { beneficiary: string }).beneficiary, limit: 50 }).total).toBe(7);
    expect(reopened.db.raw.prepare('SELECT count(*) FROM retirements_fts').pluck().get()).toBe(41);
    expect(() => reopened.db.raw.exec("INSERT INTO retirements_fts (retirements_fts) VALUES ('integrity-check')")).not.toThrow();
    reopened.close();
  });

  it('make the search entries in a transaction of their own, kept when the indexes after them fail', async () => {
    const { file, cache } = newCache();
    await commitAndCloseAtOnce(cache, loadRetirements(cache, 60));
    const reopened = openDeskCache(file);
    // An index the build cannot make: its step fails after the entries' step.
    reopened.db.raw.exec(
      `INSERT INTO deferred_indexes (name, table_name, sql) VALUES ('broken', 'retirements', 'CREATE INDEX broken ON gone (x)')`,
    );
    expect(() => reopened.write.buildDeferredIndexes()).toThrow(/no such table: (main\.)?gone/);
    expect(reopened.searchRetirements({ query: 'acme', limit: 100 }).total).toBe(12);
    expect(deferred(reopened)).toEqual(['broken', ...RETIREMENT_INDEXES]);
    expect(indexesOf(reopened)).toEqual([]);

    reopened.db.raw.exec(`DELETE FROM deferred_indexes WHERE name = 'broken'`);
    expect(reopened.write.buildDeferredIndexes()).toEqual(expect.arrayContaining(RETIREMENT_INDEXES));
    expect(indexesOf(reopened)).toEqual(RETIREMENT_INDEXES);
    reopened.close();
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
    expect(deferred(reopened)).toEqual(RETIREMENT_DEFERRED);
    const before = answers(reopened);
    expect(reopened.write.buildDeferredIndexes()).toEqual(expect.arrayContaining(RETIREMENT_DEFERRED));
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
    expect(deferred(reopened)).toEqual(RETIREMENT_DEFERRED);
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
    expect(second.write.buildDeferredIndexes()).toEqual(expect.arrayContaining(RETIREMENT_DEFERRED));
    // The other connection reads them built.
    expect(first.write.buildDeferredIndexes()).toEqual([]);
    expect(indexesOf(first)).toEqual(RETIREMENT_INDEXES);
    first.close();
    second.close();
  });
});
