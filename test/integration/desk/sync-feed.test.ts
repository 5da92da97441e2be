// The desk's sync from the registry's changes feed against the seed-interface sync: the same
// registry synced both ways into two caches gives the same rows, table by table (sync bookkeeping
// aside), first and after changes; the feed's re-sync is incremental; a registry without the feed
// is probed once per connection and synced through the seed interface.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as ops from '@registry/operations';
import { openDeskCache, type DeskCache } from '@desk/cache';
import { createSyncEngine } from '@desk/sync/engine';
import { helperScript } from '@desk/sync/worker/page-reader';
import { hashJson } from '@desk/cache/rows';
import { dropSecondaryIndexes, secondaryIndexesOf } from '@desk/cache/bulk-indexes';
import { deferIndexes } from '@desk/cache/deferred-indexes';
import { INVENTORY_SORT_FIELDS } from '@shared/desk/api';
import type { SyncEngine } from '@desk/sync/types';
import { makeDataDir } from '@test/support/registry';
import { clientThrough, startDeskWorld, type DeskWorld } from '@test/support/desk-support';
import { searchEntriesById } from '@test/support/search-entries';

let world: DeskWorld;
let seedCache: DeskCache;
let seedEngine: SyncEngine;
const dirs: { remove(): void }[] = [];

beforeAll(async () => {
  world = await startDeskWorld({ projects: 30, retirements: 120, tuning: { feedLimit: 16 } });
  const dir = makeDataDir('desk-cache-seed-');
  dirs.push(dir);
  seedCache = openDeskCache(join(dir.dir, 'cache.sqlite'), { clock: world.t.clock });
  seedEngine = createSyncEngine({
    client: world.client,
    cache: seedCache,
    clock: world.t.clock,
    installations: () => world.installations,
    tuning: { feed: false, pageSize: 20 },
  });
});
afterAll(async () => {
  await seedEngine.close();
  seedCache.close();
  await world.close();
  dirs.forEach((d) => d.remove());
});

/** Every table's rows without what only says when or how a row was synced (times, hashes of answers, rowids). */
function rows(cache: DeskCache) {
  const all = (sql: string) => cache.db.raw.prepare(sql).all();
  return {
    projects: all('SELECT * FROM projects ORDER BY scope, id').map((r) => ({ ...(r as object), rowid: undefined })),
    projectSearch: {
      public: searchEntriesById(cache.db.raw, 'projects_public_fts', "SELECT rowid, id FROM projects WHERE scope = 'public'"),
      internal: searchEntriesById(cache.db.raw, 'projects_internal_fts', "SELECT rowid, id FROM projects WHERE scope = 'internal'"),
    },
    details: all('SELECT id, json, list_hash FROM project_details ORDER BY id'),
    credits: all('SELECT project_id, json, list_hash FROM project_credits ORDER BY project_id'),
    vintages: all('SELECT * FROM project_vintages ORDER BY project_id, vintage'),
    inventories: all('SELECT account, json, credit_count FROM inventories ORDER BY account'),
    inventoryCredits: all('SELECT * FROM inventory_credits ORDER BY account, id').map((r) => ({ ...(r as object), rowid: undefined })),
    retirements: all('SELECT * FROM retirements ORDER BY id').map((r) => ({ ...(r as object), rowid: undefined })),
    retirementSearch: searchEntriesById(cache.db.raw, 'retirements_fts', 'SELECT rowid, id FROM retirements'),
    organizations: all('SELECT id, full_name, installed, json FROM organizations ORDER BY id'),
    unseen: all('SELECT id FROM organizations_unseen ORDER BY id'),
    warehouses: all('SELECT organization_id, organization_name, can_write, credits_json, reservations_json FROM warehouses'),
  };
}

const feedRequests = () => world.requests.get('/sync/v1/changes') ?? 0;
/** Each pass's question of the examiner grant: the internal list's first page of one (pass.ts). */
const grantProbes = () => world.requests.get('/projects/internal') ?? 0;
/** Requests of anything but the feed, tokens and the grant's probe (the seed interface). */
const seedRequests = () =>
  [...world.requests.entries()]
    .filter(([path]) => !/^\/sync\/v1\/changes$|\/accessTokens$|^\/projects\/internal$/.test(path))
    .reduce((n, [, c]) => n + c, 0);
const perProjectRequests = () => [...world.requests.entries()].filter(([path]) => /^\/projects\/internal\/./.test(path)).length;

describe('sync from the changes feed', () => {
  it('fills the cache exactly as the seed interface does, without per-project requests', async () => {
    const perProjectBefore = perProjectRequests();
    const seedRequestsBefore = seedRequests();
    const probesBefore = grantProbes();
    const viaFeed = await world.engine.run();
    expect(viaFeed.ok, JSON.stringify(viaFeed.results)).toBe(true);
    expect(viaFeed.results.projects).toMatchObject({
      status: 'ok',
      note: expect.stringMatching(/changes feed \(snapshot, loaded directly\)/),
    });
    expect(perProjectRequests()).toBe(perProjectBefore);
    // warehouses and the installed organization's record came through the feed too
    expect(seedRequests()).toBe(seedRequestsBefore);
    expect(grantProbes()).toBe(probesBefore + 1);
    expect(viaFeed.results.warehouses).toMatchObject({ status: 'ok', written: 1, note: expect.stringMatching(/changes feed/) });
    expect(feedRequests()).toBeGreaterThan(5); // pages of 16 resources
    expect(world.cache.feedCursor()).toMatch(/^examiner:/);
    // each account's answer hash, made piece by piece, is the hash of the answer as the staged path makes it
    const { changes } = await world.client.call('getChanges', { query: { kinds: 'inventory' } });
    for (const item of changes)
      if (item.type === 'inventory') expect(world.cache.inventoryAnswerHash(item.account)).toBe(hashJson(JSON.stringify(item.inventory)));

    const viaSeed = await seedEngine.run();
    expect(viaSeed.ok, JSON.stringify(viaSeed.results)).toBe(true);
    const feedRows = rows(world.cache);
    expect(feedRows.projects.length).toBeGreaterThan(60);
    expect(feedRows.retirements).toHaveLength(120);
    expect(feedRows.vintages.length, 'a credits answer with vintages to compare').toBeGreaterThan(0);
    expect(feedRows).toEqual(rows(seedCache));
  });

  it('builds at its next run the indexes a desk that stopped left to build after its first load', async () => {
    const { db } = world.cache;
    const tables = ['retirements', 'inventory_credits'];
    // Built after the first sync's commit (cache/deferred-indexes.ts); as a desk stopped before
    // that build leaves them: dropped, and recorded with the load's own function.
    // (by name: a build creates them in that order)
    const indexesOf = (table: string) => secondaryIndexesOf(db, table).sort((a, b) => a.name.localeCompare(b.name));
    const built = tables.map(indexesOf);
    expect(built.map((indexes) => indexes.length)).toEqual([7, 7]);
    // Every sort of both lists, which walk those indexes once built: the same rows without them.
    const lists = () => [
      ...(['createdAt', 'amount', 'beneficiary', 'project'] as const).map((field) =>
        world.cache.searchRetirements({ sort: { field, direction: 'asc' }, limit: 50 }),
      ),
      ...INVENTORY_SORT_FIELDS.map((field) =>
        world.cache.searchInventoryCredits({ account: 'buffer', sort: { field, direction: 'desc' }, limit: 50 }),
      ),
    ];
    const withIndexes = lists();
    expect(withIndexes[0]!.total).toBe(120);
    expect(withIndexes[4]!.total).toBeGreaterThan(0);
    db.transaction(() =>
      tables.forEach((table, i) => {
        dropSecondaryIndexes(db, table);
        deferIndexes(
          db,
          built[i]!.map((index) => ({ ...index, tbl_name: table })),
        );
      }),
    );
    expect(lists()).toEqual(withIndexes);

    const next = await world.engine.run();
    expect(next.ok, JSON.stringify(next.results)).toBe(true);
    expect(tables.map(indexesOf)).toEqual(built);
    expect(db.raw.prepare('SELECT count(*) FROM deferred_indexes').pluck().get()).toBe(0);
    // The same rows (the run moved only the answers' asOf).
    expect(lists()).toEqual(withIndexes.map((answer) => ({ ...answer, asOf: expect.any(String) })));
  });

  it('re-syncs only what changed since its cursor, removals included, and still matches', async () => {
    const { f } = world;
    const r = world.t.registry;
    world.t.clock.advance(60_000);
    ops.retireFromInventory(r, { organizationId: f.orgA, creditId: f.creditId, amount: 1, beneficiary: 'Later', reason: 'Travel' });
    ops.changeProjectStatus(r, { projectId: f.projectId, status: 'withdrawn' }); // leaves the public list
    ops.setOrganizationVerified(r, { organizationId: f.orgB, verified: false });
    ops.transferCredits(r, {
      from: { kind: 'inventory', organizationId: f.orgA },
      to: { kind: 'adjustment' },
      creditId: f.creditId,
      amount: 2,
    });

    const before = feedRequests();
    const viaFeed = await world.engine.run();
    expect(viaFeed.ok, JSON.stringify(viaFeed.results)).toBe(true);
    expect(feedRequests() - before).toBe(2); // a handful of changes: one page for the app, one for its installation
    expect(viaFeed.results.projects).toMatchObject({ note: expect.not.stringMatching(/snapshot/) });
    expect(world.cache.searchProjects({ scope: 'public', limit: 500 }).rows.some((p) => p.id === f.projectId)).toBe(false);

    const viaSeed = await seedEngine.run();
    expect(viaSeed.ok, JSON.stringify(viaSeed.results)).toBe(true);
    expect(rows(world.cache)).toEqual(rows(seedCache));

    // nothing changed: one request each, nothing written
    const quiet = await world.engine.run();
    expect(quiet.results.retirements).toMatchObject({ status: 'ok', written: 0, deleted: 0 });
    expect(quiet.results.warehouses).toMatchObject({ status: 'ok', written: 0 });
    expect(feedRequests() - before).toBe(4);
  });

  it('stages a snapshot into a cache that holds data, and still matches', async () => {
    world.cache.write.setFeedCursor(null);
    const again = await world.engine.run();
    expect(again.ok, JSON.stringify(again.results)).toBe(true);
    expect(again.results.retirements).toMatchObject({ note: expect.stringMatching(/changes feed \(snapshot\)/) });
    expect(rows(world.cache)).toEqual(rows(seedCache));
  });

  it('leaves the cache empty when a snapshot loaded directly fails half-way, and loads it next time', async () => {
    // A client whose feed pages go through `spoil` (which answers whether it changed the page).
    const spoiling = (spoil: (page: { changes: Record<string, unknown>[] }, n: number) => boolean) => {
      let pages = 0;
      return clientThrough(world, async (url, init) => {
        const response = await fetch(url, init);
        if (url.pathname !== '/sync/v1/changes') return response;
        const page = (await response.json()) as { changes: Record<string, unknown>[] };
        spoil(page, ++pages);
        return new Response(JSON.stringify(page), { status: 200, headers: { 'content-type': 'application/json' } });
      });
    };
    // The second page carries an item that breaks the contract.
    const client = spoiling((page, n) => n === 2 && Boolean((page.changes[0] = { type: 'retirement', retirement: { id: 5 } })));
    // An inventory credit that breaks it (inventories are read credit by credit).
    const badCredit = spoiling((page) => {
      const inventory = (page.changes as { type?: string; inventory?: { credits: { amount: unknown }[] } }[]).find(
        (item) => item.type === 'inventory' && item.inventory!.credits.length > 0,
      );
      if (inventory) inventory.inventory!.credits[0]!.amount = 'much';
      return inventory !== undefined;
    });
    const dir = makeDataDir('desk-cache-broken-');
    dirs.push(dir);
    const cache = openDeskCache(join(dir.dir, 'cache.sqlite'), { clock: world.t.clock });
    const tuning = { feedLimit: 16 };
    const broken = createSyncEngine({ client, cache, clock: world.t.clock, installations: () => world.installations, tuning });
    // The load that succeeds has its pages prepared on a thread of their own, as the sync worker
    // has them for a first load (the failures above had them on the sync's thread).
    const pageReaderThread = { script: helperScript(undefined), workerData: {} };
    const engine = createSyncEngine({
      client: world.client,
      cache,
      clock: world.t.clock,
      installations: () => world.installations,
      tuning,
      pageReaderThread,
    });
    try {
      const failed = await broken.run(['projects', 'retirements']);
      expect(failed.results.retirements).toMatchObject({
        status: 'failed',
        error: expect.stringMatching(/changes feed: .*changes\.0\.retirement/s),
      });
      const count = (table: string) => cache.db.raw.prepare(`SELECT count(*) FROM ${table}`).pluck().get();
      expect([count('projects'), count('retirements'), count('project_credits'), count('retirements_fts')]).toEqual([0, 0, 0, 0]);
      expect(cache.feedCursor()).toBeNull();
      const spoiled = createSyncEngine({
        client: badCredit,
        cache,
        clock: world.t.clock,
        installations: () => world.installations,
        tuning,
      });
      const failedCredit = await spoiled.run(['inventories']);
      await spoiled.close();
      expect(failedCredit.results.inventories).toMatchObject({
        status: 'failed',
        error: expect.stringMatching(/changes\.\d+\.inventory\.credits\.0\.amount/),
      });
      expect([count('projects'), count('inventory_credits'), count('inventories')]).toEqual([0, 0, 0]);

      const loaded = await engine.run();
      expect(loaded.ok, JSON.stringify(loaded.results)).toBe(true);
      expect(loaded.results.projects).toMatchObject({ note: expect.stringMatching(/loaded directly/) });
      expect(rows(cache)).toEqual(rows(world.cache));
    } finally {
      await broken.close();
      await engine.close();
      cache.close();
    }
  });

  it("follows an installation's warehouse access from its own feed", async () => {
    const installation = world.installations[0]!;
    const permissions = installation.permissions;
    try {
      installation.permissions = { organization_info: 'VIEW' };
      const without = await world.engine.run(['warehouses']);
      expect(without.results.warehouses).toMatchObject({ status: 'skipped' });
      expect(rows(world.cache).warehouses).toEqual([]);
    } finally {
      installation.permissions = permissions;
    }
    const again = await world.engine.run(['warehouses', 'organizations']);
    expect(again.results.warehouses).toMatchObject({ status: 'ok', written: 1 });
    expect(rows(world.cache)).toEqual(rows(seedCache));
  });

  it('probes a registry without the feed once per connection and syncs it through the seed interface', async () => {
    let probes = 0;
    // A registry like the public one the seed interface describes: no such path.
    const client = clientThrough(world, (url, init) => {
      if (url.pathname === '/sync/v1/changes') {
        probes++;
        return Promise.resolve(
          new Response(JSON.stringify({ statusCode: 404, message: 'Not Found', error: 'Not Found' }), { status: 404 }),
        );
      }
      return fetch(url, init);
    });
    const dir = makeDataDir('desk-cache-nofeed-');
    dirs.push(dir);
    const cache = openDeskCache(join(dir.dir, 'cache.sqlite'), { clock: world.t.clock });
    const engine = createSyncEngine({ client, cache, clock: world.t.clock, installations: () => world.installations });
    try {
      for (let i = 0; i < 2; i++) {
        const result = await engine.run();
        expect(result.ok, JSON.stringify(result.results)).toBe(true);
      }
      expect(probes).toBe(1);
      expect(cache.feedCursor()).toBeNull();
      expect(rows(cache)).toEqual(rows(seedCache));
    } finally {
      await engine.close();
      cache.close();
    }
  });
});
