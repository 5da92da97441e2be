import { afterEach, describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { createTokenManager } from '@desk/client/tokens';
import { createRegistryClient } from '@desk/client/registry-client';
import { createSyncEngine } from '@desk/sync/engine';
import type { FetchLike } from '@desk/client/http';
import { startDeskWorld, type DeskWorld } from '@test/support/desk-support';

let world: DeskWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('sync with a misbehaving or absent registry', () => {
  it('rejects a resource whose answer has the wrong shape, keeps its cached data, and syncs the others', async () => {
    world = await startDeskWorld({ retirements: 5 });
    const { cache, t } = world;
    // A tiny app answers the buffer inventory and the retirement list with wrong shapes; every
    // other path goes to the real registry over loopback.
    const liar = new Hono();
    liar.get('/carbonCredits/icr/inventory/buffer', (c) => c.json({ summary: { exPost: 'lots' }, credits: null }));
    liar.get('/projects/internal', (c) =>
      c.json({ projects: [{ id: 1 }], pagination: { total: 1, currentPage: 0, pageCount: 1, nextPage: null, prevPage: null } }),
    );
    liar.get('/v1/retirements', (c) =>
      c.json({ retirements: [{ id: 1 }], pagination: { total: 1, currentPage: 0, pageCount: 1, nextPage: null, prevPage: null } }),
    );
    const engineLyingAbout = (lies: (url: URL) => boolean, tuning: { pageSize?: number } = {}) => {
      const routed: FetchLike = (input, init) => {
        const url = new URL(input instanceof Request ? input.url : input);
        return lies(url) ? Promise.resolve(liar.fetch(new Request(url, init))) : fetch(input, init);
      };
      const tokens = createTokenManager({
        baseUrl: t.url,
        appId: world!.app.id,
        loadPrivateKey: async () => world!.app.privateKey,
        clock: t.clock,
      });
      const client = createRegistryClient({ baseUrl: t.url, tokens, clock: t.clock, fetch: routed });
      return createSyncEngine({
        client,
        cache,
        clock: t.clock,
        installations: () => world!.installations,
        tuning: { feed: false, ...tuning },
      });
    };
    // A first pass of retirements or internal projects (written straight into the empty table)
    // whose second page breaks the contract leaves the table empty, its transaction rolled back.
    // (Pages of one: the fixture's two internal projects fill two, and a pass reads no page past
    // the total its pages tell.)
    const firstPass = await engineLyingAbout(
      (url) => ['/v1/retirements', '/projects/internal'].includes(url.pathname) && url.searchParams.get('page') === '1',
      { pageSize: 1 },
    ).run(['internalProjects', 'retirements']);
    expect(firstPass.results.retirements?.status).toBe('failed');
    expect(firstPass.results.internalProjects?.status).toBe('failed');
    expect(cache.db.raw.inTransaction).toBe(false);
    expect(cache.countRetirements()).toBe(0);
    expect(cache.searchProjects({ scope: 'internal' }).total).toBe(0);
    expect(cache.syncState('retirements')?.last_success_at ?? null).toBeNull();
    expect(cache.syncState('internalProjects')?.last_success_at ?? null).toBeNull();

    expect((await world.engine.run()).ok).toBe(true);
    const inventoryBefore = cache.getInventory('buffer');
    const creditsBefore = cache.searchInventoryCredits({ account: 'buffer', limit: 500 });
    expect(creditsBefore.total).toBeGreaterThan(0);
    const retirementsBefore = cache.searchRetirements({});

    const engine = engineLyingAbout((url) => ['/carbonCredits/icr/inventory/buffer', '/v1/retirements'].includes(url.pathname));
    const result = await engine.run();
    expect(result.ok).toBe(false);
    expect(result.offline).toBe(false);
    const inventory = result.results.inventories;
    expect(inventory?.status).toBe('failed');
    expect(inventory?.status === 'failed' && inventory.error).toMatch(/does not match the contract.*summary\.exPost/);
    expect(result.results.retirements?.status).toBe('failed');
    expect(result.results.projects?.status).toBe('ok');
    expect(result.results.warehouses?.status).toBe('ok');
    expect(engine.status().lastError).toMatch(/retirements/);
    expect(engine.status().online).toBe(true);
    // The cache still holds exactly the previous answers.
    expect(cache.getInventory('buffer')).toEqual(inventoryBefore);
    expect(cache.searchInventoryCredits({ account: 'buffer', limit: 500 })).toEqual(creditsBefore);
    expect(cache.searchRetirements({})).toEqual(retirementsBefore);
    expect(cache.syncState('inventories')?.last_error).toMatch(/summary\.exPost/);
  });

  it('reports offline when the registry is down from the start, and the cache keeps answering', async () => {
    world = await startDeskWorld({ projects: 3 });
    const { engine, cache, t } = world;
    await engine.run();
    const asOf = cache.searchProjects({}).asOf;
    await t.server.close();
    world.tokens.clear();
    const result = await engine.run();
    expect(result.offline).toBe(true);
    expect(engine.status().online).toBe(false);
    expect(engine.status().lastError).toMatch(/unreachable/);
    const reads = cache.searchProjects({ query: 'coastal' });
    expect(reads.total).toBe(1);
    expect(reads.asOf).toBe(asOf);
    expect(cache.getWarehouse(world.f.orgA)?.credits).toHaveLength(1);
  });
});
