// The first load's work done ahead while it waits for pages (snapshot-writers.ts, idleWork): the
// inventories' search entries, and the indexes of tables whose items stopped arriving (the
// retirements' search entries are made after the commit: deferred-indexes.ts).
// The same items loaded into two real cache files, one with that work interleaved (and an account
// sent again after its search entries were made, retirements sent again, one reusing its rowid), one
// without: both hold the same rows, search entries and indexes once committed.
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { InventorySummary, OrganizationSummary, Project, Retirement } from '@shared/registry/resources';
import { openDeskCache, type DeskCache } from '@desk/cache';
import { beginSnapshotLoad } from '@desk/cache/snapshot-writers';
import { hashJson, projectRowParts, retirementColumns } from '@desk/cache/rows';
import { removeFeedRows } from '@desk/sync/feed-read';
import { makeDataDir } from '@test/support/registry';
import { searchEntriesById } from '@test/support/search-entries';
import { project as fullProject } from '@test/support/search-caches';
import { ACCOUNT_SEARCH } from '@desk/resources/inventories/writers';
import { creditColumns } from '@desk/resources/inventories/credit-rows';

const work = makeDataDir('desk-snapshot-load-');
afterAll(() => work.remove());

const project = (i: number) => ({ id: `p-${i}`, fullName: `Project ${i}`, url: '', publicUrl: '', num: String(100 + i) });
const retirement = (i: number, amount = i): Retirement =>
  i % 3 === 0
    ? { id: `r-${i}`, isClaimed: false, createdAt: '2026-01-01T00:00:00.000Z', amount, project: project(i % 7) }
    : {
        id: `r-${i}`,
        isClaimed: true,
        createdAt: `2026-01-${String(1 + (i % 28)).padStart(2, '0')}T00:00:00.000Z`,
        amount,
        project: project(i % 7),
        reason: 'offset',
        comment: '',
        beneficiary: `Beneficiary ${i % 5}`,
        organizationId: 'o-1',
        organizationOwner: { id: 'o-1', fullName: 'Org', logo: '', publicUrl: '' },
        serialization: `ICR-${i}`,
        vintage: String(2018 + (i % 4)),
      };
const credit = (i: number) => ({
  organizationId: 'o-1',
  id: `c-${i}`,
  tokenId: String(i),
  tokenAddress: '0x1',
  project: project(i % 5),
  serialization: `S-${i}`,
  vintage: String(2019 + (i % 3)),
  supply: 10,
  unit: 't',
  amount: i,
  type: i % 2 ? 'exPost' : 'exAnte',
});

function loadInto(cache: DeskCache, idle: boolean) {
  const load = beginSnapshotLoad(cache.db, () => 0);
  const ahead = (ended: string[]) => {
    if (!idle) return;
    for (let piece = load.idleWork(new Set(ended)); piece; piece = load.idleWork(new Set(ended))) piece();
  };
  const inventory = (from: number, to: number) =>
    load.parts.inventories!.inventory({
      account: 'buffer',
      summary: {} as InventorySummary,
      organization: {} as OrganizationSummary,
      credits: Array.from({ length: to - from }, (_, k) => {
        const parsed = credit(from + k);
        return { id: `c-${from + k}`, columns: creditColumns(parsed), json: JSON.stringify(parsed), hash: `h${from + k}` };
      }),
      answerHash: () => 'a',
    });
  inventory(0, 40);
  const put = (r: Retirement) =>
    load.parts.retirements!.retirement({ id: r.id, json: JSON.stringify(r), hash: `h-${r.id}-${r.amount}`, columns: retirementColumns(r) });
  for (let i = 0; i < 30; i++) put(retirement(i));
  ahead(['inventories']);
  if (idle) {
    // Done ahead: the inventory's indexes and the search entries so far.
    expect(cache.db.raw.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'inventory_credits_by_amount'").pluck().get()).toBe(1);
    expect(cache.db.raw.prepare('SELECT count(*) FROM retirements_fts').pluck().get(), 'made after the commit').toBe(0);
    expect(cache.db.raw.prepare('SELECT count(*) FROM inventory_buffer_fts').pluck().get()).toBe(40);
  }
  // An account sent again replaces the first copy, search entries made or not.
  inventory(10, 60);
  // Sent again: the newest one (its rowid is reused) and an older one.
  put(retirement(29, 1000));
  put(retirement(4, 2000));
  for (let i = 30; i < 50; i++) put(retirement(i));
  ahead(['inventories']);
  put(retirement(40, 3000));
  inventory(20, 50);
  load.finish(false);
  return load.commit();
}

const contents = (cache: DeskCache) => {
  const all = (sql: string) => cache.db.raw.prepare(sql).all();
  return {
    retirements: all('SELECT * FROM retirements ORDER BY id').map((r) => ({ ...(r as object), rowid: undefined })),
    search: searchEntriesById(cache.db.raw, 'retirements_fts', 'SELECT rowid, id FROM retirements'),
    searchRows: all('SELECT count(*) FROM retirements_fts'),
    found: cache.searchRetirements({ query: 'benef', limit: 100 }),
    credits: all('SELECT * FROM inventory_credits ORDER BY id').map((r) => ({ ...(r as object), rowid: undefined })),
    creditSearch: searchEntriesById(
      cache.db.raw,
      'inventory_buffer_fts',
      "SELECT rowid, id FROM inventory_credits WHERE account = 'buffer'",
    ),
    creditSearchRows: all('SELECT count(*) FROM inventory_buffer_fts'),
    indexes: all("SELECT name, sql FROM sqlite_schema WHERE type = 'index' ORDER BY name"),
  };
};

it('holds the same rows, search entries and indexes with the work done ahead as without', async () => {
  const ahead = openDeskCache(join(work.dir, 'ahead.sqlite'));
  const atEnd = openDeskCache(join(work.dir, 'at-end.sqlite'));
  await loadInto(ahead, true);
  await loadInto(atEnd, false);
  const expected = contents(atEnd);
  expect(expected.retirements).toHaveLength(50);
  expect(Object.keys(expected.search)).toHaveLength(50);
  expect(Object.keys(expected.creditSearch)).toHaveLength(30);
  expect(contents(ahead)).toEqual(expected);
  expect(ahead.db.raw.pragma('integrity_check', { simple: true })).toBe('ok');
  ahead.close();
  atEnd.close();
});

it("holds FTS5's merging off during the load and gives it back before the commit, or with the rollback", async () => {
  const cache = openDeskCache(join(work.dir, 'merges.sqlite'));
  const setting = (table: string, option: string) =>
    cache.db.raw.prepare(`SELECT v FROM ${table}_config WHERE k = ?`).pluck().get(option) as number | undefined;
  const failed = beginSnapshotLoad(cache.db, () => 0);
  expect([setting('projects_public_fts', 'automerge'), setting('inventory_buffer_fts', 'automerge')]).toEqual([0, 0]);
  failed.rollback();
  expect(setting('projects_public_fts', 'automerge'), 'rolled back with the load').toBeUndefined();
  await loadInto(cache, false);
  // (the retirements' after their fill, which holds it off too: deferred-indexes.ts)
  for (const table of ['retirements_fts', 'projects_public_fts', 'inventory_buffer_fts'])
    expect(setting(table, 'automerge'), table).toBe(4);
  // FTS5's own check of its index against the rows it was given.
  expect(() => cache.db.raw.exec("INSERT INTO retirements_fts (retirements_fts) VALUES ('integrity-check')")).not.toThrow();
  cache.close();
});

it("reads a piece of an account's search entries by its rowid range, in rowid order, with no statistics to go by", () => {
  // FTS5 writes its pending entries out as a segment whenever a rowid is not above the last one: rows
  // handed over in another order (the (account, id) index's) made thousands of tiny segments.
  const cache = openDeskCache(join(work.dir, 'plan.sqlite'));
  const load = beginSnapshotLoad(cache.db, () => 0);
  try {
    expect(cache.db.raw.prepare("SELECT count(*) FROM sqlite_stat1 WHERE tbl = 'inventory_credits'").pluck().get()).toBe(0);
    const piece = ACCOUNT_SEARCH.buffer.putBetween({ account: 'buffer', before: 100, upTo: 5100 }, cache.db.q).compile();
    const plan = cache.db.raw
      .prepare(`EXPLAIN QUERY PLAN ${piece.sql}`)
      .all(...piece.parameters)
      .map((row) => (row as { detail: string }).detail);
    expect(plan).toEqual(['SEARCH inventory_credits USING INTEGER PRIMARY KEY (rowid>? AND rowid<?)']);
  } finally {
    load.rollback();
    cache.close();
  }
});

it("answers the loaded projects' proponents as the cache reads them back, the internal list's when it has projects", async () => {
  const organization = (id: string) => ({ id, fullName: id, logo: '', publicUrl: '' });
  const withProponents = (i: number, ids: string[]) => fullProject(i, { proponents: ids.map(organization) });
  const loaded = (p: Project) => {
    const json = JSON.stringify(p);
    return { id: p.id, json, hash: hashJson(json), parts: projectRowParts(p) };
  };
  for (const internal of [false, true]) {
    const cache = openDeskCache(join(work.dir, `proponents-${internal}.sqlite`));
    const load = beginSnapshotLoad(cache.db, () => 0);
    const projects = load.parts.projects!;
    projects.project('public', loaded(withProponents(1, ['o1', 'o2'])));
    projects.project('public', loaded(withProponents(2, ['o3'])));
    // Sent again with other proponents: the last copy counts.
    projects.project('public', loaded(withProponents(1, ['o4'])));
    // Removed by the feed: its proponent is nobody's now.
    projects.project('public', loaded(withProponents(3, ['o5'])));
    projects.dropped('project', 'p3');
    removeFeedRows(cache, (type) => (type === 'project' ? ['p3'] : []));
    if (internal) projects.project('internal', loaded(withProponents(4, ['o6', 'o4'])));
    load.finish(internal);
    await load.commit();
    const expected = internal ? ['o4', 'o6'] : ['o3', 'o4'];
    expect(cache.proponentIds().sort()).toEqual(expected);
    expect(projects.proponentIds().sort()).toEqual(expected);
    cache.close();
  }
});
