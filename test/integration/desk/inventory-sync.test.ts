// Syncing the registry accounts' inventories from a scale-1 demo registry on a loopback port into a
// real cache file: the rows are the registry's answers exactly; an unchanged answer is skipped
// without writing; a changed account is re-written (only its changed credits); a malformed answer
// fails the resource and leaves every account as it was.
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenManager } from '@desk/client/tokens';
import { createRegistryClient, type RegistryClient } from '@desk/client/registry-client';
import type { FetchLike } from '@desk/client/http';
import { openDeskCache, type DeskCache } from '@desk/cache';
import { createSyncEngine } from '@desk/sync/engine';
import type { SyncEngine } from '@desk/sync/types';
import * as ops from '@registry/operations';
import { seedDemo, type DemoCredentials } from '@registry/seed';
import { INVENTORY_ACCOUNTS, type InventoryAccount, type InventoryCreditRow } from '@shared/desk/api';
import { makeDataDir, startTestRegistry, type TestRegistry } from '@test/support/registry';
import { inventoryRowOf } from '@test/support/inventory-rows';

const ENDPOINT = { buffer: 'getBufferInventory', adjustment: 'getAdjustmentInventory', organization: 'getOrganizationInventory' } as const;
const PATH = {
  buffer: '/carbonCredits/icr/inventory/buffer',
  adjustment: '/carbonCredits/icr/inventory/adjustment',
  organization: '/carbonCredits/icr/inventory/organization',
};

let t: TestRegistry;
let credentials: DemoCredentials;
let cacheDir: { dir: string; remove(): void };
let cache: DeskCache;
let client: RegistryClient;
let engine: SyncEngine;
const requests = new Map<string, number>();

function wire(fetchFn: FetchLike = fetch, into: DeskCache = cache) {
  const counting: FetchLike = (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    requests.set(url.pathname, (requests.get(url.pathname) ?? 0) + 1);
    return fetchFn(input, init);
  };
  const tokens = createTokenManager({
    baseUrl: t.url,
    appId: credentials.app.id,
    loadPrivateKey: async () => credentials.app.privateKeyPem,
    clock: t.clock,
    fetch: counting,
  });
  const c = createRegistryClient({ baseUrl: t.url, tokens, clock: t.clock, fetch: counting, retry: { baseDelayMs: 10 } });
  return {
    client: c,
    engine: createSyncEngine({ client: c, cache: into, clock: t.clock, installations: () => [], tuning: { feed: false } }),
  };
}

const asRow = inventoryRowOf;

/** Every row of an account in serialization order (the registry answers in that order too). */
function cachedRows(account: InventoryAccount): InventoryCreditRow[] {
  return [...cache.inventoryCreditsOf({ account, sort: { field: 'serialization', direction: 'asc' } })];
}

/** The credits' stored JSON, by id. */
function storedJson(account: InventoryAccount): Map<string, string> {
  return new Map(cache.db.raw.prepare('SELECT id, json FROM inventory_credits WHERE account = ?').raw().all(account) as [string, string][]);
}

/** The cache matches what the registry answers now, account by account, credit by credit. */
async function expectCacheEqualsRegistry() {
  for (const account of INVENTORY_ACCOUNTS) {
    const answer = await client.call(ENDPOINT[account]);
    const sorted = [...answer.credits].sort((a, b) => (a.serialization.toLowerCase() < b.serialization.toLowerCase() ? -1 : 1));
    expect(cachedRows(account), account).toEqual(sorted.map(asRow));
    const json = storedJson(account);
    expect(json.size).toBe(answer.credits.length);
    for (const credit of answer.credits) expect(JSON.parse(json.get(credit.id)!), credit.id).toEqual(credit);
    expect(cache.getInventory(account), account).toMatchObject({
      summary: answer.summary,
      organization: answer.organization,
      creditCount: answer.credits.length,
    });
  }
}

const totalChanges = () => cache.db.raw.prepare('SELECT total_changes()').pluck().get() as number;

beforeAll(async () => {
  t = await startTestRegistry({
    background: false,
    setup: (r) => {
      credentials = seedDemo(r, { scale: 1 }).credentials;
    },
  });
  cacheDir = makeDataDir('desk-inventory-sync-');
  cache = openDeskCache(join(cacheDir.dir, 'cache.sqlite'), { clock: t.clock });
  ({ client, engine } = wire());
}, 120_000);

afterAll(async () => {
  await engine?.close();
  cache?.close();
  cacheDir?.remove();
  await t?.close();
});

describe('inventories sync against a scale-1 demo registry', () => {
  it('fills every account with exactly the registry answers', async () => {
    const result = await engine.run(['inventories']);
    expect(result.ok, JSON.stringify(result.results)).toBe(true);
    const outcome = result.results.inventories;
    expect(outcome?.status).toBe('ok');
    const buffer = await client.call('getBufferInventory');
    expect(buffer.credits.length).toBeGreaterThan(100);
    await expectCacheEqualsRegistry();
    expect(outcome).toMatchObject({
      written:
        cache.searchInventoryCredits({ account: 'buffer' }).total +
        cache.searchInventoryCredits({ account: 'adjustment' }).total +
        cache.searchInventoryCredits({ account: 'organization' }).total,
      deleted: 0,
    });
    // Nothing is left staged.
    expect(cache.db.raw.prepare('SELECT count(*) FROM inventory_staging').pluck().get()).toBe(0);
    expect(cache.syncState('inventories')?.last_error).toBeNull();
  });

  it('skips unchanged answers on a re-sync: read, hashed, not parsed, nothing written but the sync and check times', async () => {
    requests.clear();
    const before = totalChanges();
    const asOf = cache.getInventory('buffer')?.asOf;
    t.clock.advance(60_000);
    const result = await engine.run(['inventories']);
    expect(result.ok).toBe(true);
    expect(result.results.inventories).toEqual({
      status: 'ok',
      written: 0,
      deleted: 0,
      note: 'unchanged: buffer, adjustment, organization',
    });
    for (const path of Object.values(PATH)) expect(requests.get(path)).toBe(1);
    // The two rows written: the resource's sync_state (its success time) and the history check's
    // state (the time the registry's log was checked; docs/desk.md, "History verified").
    expect(totalChanges() - before).toBe(2);
    expect(cache.getInventory('buffer')?.asOf).not.toBe(asOf);
  });

  it('re-writes an account whose answer changed, and only the credits that changed', async () => {
    const buffer = await client.call('getBufferInventory');
    const moved = buffer.credits.find((c) => c.amount >= 2)!;
    const untouched = buffer.credits.find((c) => c.id !== moved.id)!;
    const rowidOf = (account: InventoryAccount, id: string) =>
      cache.db.raw.prepare('SELECT rowid FROM inventory_credits WHERE account = ? AND id = ?').pluck().get(account, id);
    const untouchedRowid = rowidOf('buffer', untouched.id);
    const organizationRows = cachedRows('organization');
    // Half of one credit moves from the buffer into the adjustment account.
    ops.transferCredits(t.registry, { from: { kind: 'buffer' }, to: { kind: 'adjustment' }, creditId: moved.id, amount: 1 });

    const result = await engine.run(['inventories']);
    expect(result.ok, JSON.stringify(result.results)).toBe(true);
    // The buffer's moved credit changed; the adjustment account gained it (or its amount changed).
    expect(result.results.inventories).toEqual({ status: 'ok', written: 2, deleted: 0, note: 'unchanged: organization' });
    await expectCacheEqualsRegistry();
    expect(cache.searchInventoryCredits({ account: 'buffer', query: moved.serialization }).rows[0]?.amount).toBeCloseTo(
      moved.amount - 1,
      6,
    );
    // An unchanged credit kept its row; the untouched account was not written at all.
    expect(rowidOf('buffer', untouched.id)).toBe(untouchedRowid);
    expect(cachedRows('organization')).toEqual(organizationRows);
  });

  it('removes credits an account no longer holds', async () => {
    const adjustment = await client.call('getAdjustmentInventory');
    const gone = adjustment.credits[0]!;
    ops.transferCredits(t.registry, { from: { kind: 'adjustment' }, to: { kind: 'buffer' }, creditId: gone.id, amount: gone.amount });
    const result = await engine.run(['inventories']);
    expect(result.ok, JSON.stringify(result.results)).toBe(true);
    expect(result.results.inventories).toMatchObject({ status: 'ok', deleted: 1 });
    expect(cache.searchInventoryCredits({ account: 'adjustment', query: gone.serialization }).total).toBe(0);
    await expectCacheEqualsRegistry();
  });

  it('fails on a malformed credit with the contract message and leaves every account as it was', async () => {
    // Buffer changes for real; the organization account answers one credit with a wrong amount.
    const buffer = await client.call('getBufferInventory');
    ops.transferCredits(t.registry, {
      from: { kind: 'buffer' },
      to: { kind: 'adjustment' },
      creditId: buffer.credits.at(-1)!.id,
      amount: 0.5,
    });
    const snapshot = () =>
      INVENTORY_ACCOUNTS.map((account) => ({
        account,
        inventory: cache.getInventory(account),
        rows: cachedRows(account),
        facets: cache.inventoryFacets(account),
      }));
    const before = snapshot();
    const liar = new Hono();
    liar.get(PATH.organization, async (c) => {
      const real = (await (
        await fetch(`${t.url}${PATH.organization}`, { headers: { authorization: c.req.header('authorization')! } })
      ).json()) as { credits: Record<string, unknown>[] };
      real.credits[3] = { ...real.credits[3], amount: 'twelve' };
      return c.json(real);
    });
    const routed: FetchLike = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : input);
      return url.pathname === PATH.organization ? Promise.resolve(liar.fetch(new Request(url, init))) : fetch(input, init);
    };
    const lying = wire(routed);
    const result = await lying.engine.run(['inventories']);
    await lying.engine.close();
    expect(result.ok).toBe(false);
    const outcome = result.results.inventories;
    expect(outcome?.status).toBe('failed');
    expect(outcome?.status === 'failed' && outcome.error).toMatch(
      /^inventories: GET \/carbonCredits\/icr\/inventory\/organization: the answer does not match the contract: credits\.3\.amount: /,
    );
    expect(cache.syncState('inventories')?.last_error).toMatch(/credits\.3\.amount/);
    // The buffer's real change was read and staged before the failure: none of it was kept.
    expect(snapshot()).toEqual(before);
    expect(cache.db.raw.prepare('SELECT count(*) FROM inventory_staging').pluck().get()).toBe(0);

    // Into an empty cache (a first sync writes the credits straight into their table) the same
    // answer rolls the whole load back: none of the other accounts' credits, entries or summaries stay.
    const emptyDir = makeDataDir('desk-inventory-first-');
    const empty = openDeskCache(join(emptyDir.dir, 'cache.sqlite'), { clock: t.clock });
    try {
      const first = wire(routed, empty);
      const failed = await first.engine.run(['inventories']);
      await first.engine.close();
      expect(failed.results.inventories).toMatchObject({ status: 'failed', error: expect.stringMatching(/credits\.3\.amount/) });
      expect(empty.db.raw.inTransaction).toBe(false);
      const count = (sql: string) => empty.db.raw.prepare(sql).pluck().get();
      expect(count('SELECT count(*) FROM inventory_credits')).toBe(0);
      expect(count('SELECT count(*) FROM inventory_buffer_fts')).toBe(0);
      expect(count('SELECT count(*) FROM inventories')).toBe(0);
      // The indexes dropped for the load are back, as the synced cache has them.
      const indexes = `SELECT group_concat(name) FROM (SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'inventory_credits' ORDER BY name)`;
      expect(count(indexes)).toBe(cache.db.raw.prepare(indexes).pluck().get());
    } finally {
      empty.close();
      emptyDir.remove();
    }

    // An answer cut short is not JSON: the same, with the client's wording.
    const cut = new Hono();
    cut.get(PATH.buffer, async (c) => {
      const real = await (await fetch(`${t.url}${PATH.buffer}`, { headers: { authorization: c.req.header('authorization')! } })).text();
      return c.body(real.slice(0, Math.floor(real.length / 2)), 200, { 'content-type': 'application/json' });
    });
    const cutting = wire((input, init) => {
      const url = new URL(input instanceof Request ? input.url : input);
      return url.pathname === PATH.buffer ? Promise.resolve(cut.fetch(new Request(url, init))) : fetch(input, init);
    });
    const truncated = await cutting.engine.run(['inventories']);
    await cutting.engine.close();
    expect(truncated.results.inventories).toEqual({
      status: 'failed',
      error: 'inventories: GET /carbonCredits/icr/inventory/buffer: the answer is not JSON',
    });
    expect(snapshot()).toEqual(before);

    // The honest registry again: the next run brings everything up to date.
    const again = await engine.run(['inventories']);
    expect(again.ok, JSON.stringify(again.results)).toBe(true);
    await expectCacheEqualsRegistry();
  });
});
