// An installation's own feed (desk/resources/warehouses/installation-feed.ts): narrowed to its
// organization, it brings its record and its warehouse in one page however many public
// organizations the registry has (the app's pages bring those); from a registry that ignores the
// narrowing, the others are passed over and the cache is the same.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as ops from '@registry/operations';
import { openDeskCache, type DeskCache } from '@desk/cache';
import { createSyncEngine } from '@desk/sync/engine';
import { makeDataDir } from '@test/support/registry';
import { clientThrough, startDeskWorld, type DeskWorld } from '@test/support/desk-support';

let world: DeskWorld;
const dirs: { remove(): void }[] = [];

beforeAll(async () => {
  world = await startDeskWorld({ projects: 5, retirements: 10, tuning: { feedLimit: 16 } });
});
afterAll(async () => {
  await world.close();
  dirs.forEach((d) => d.remove());
});

/** The organizations and warehouses a cache holds (what an installation's feed writes). */
function organizationsAndWarehouses(cache: DeskCache) {
  const all = (sql: string) => cache.db.raw.prepare(sql).all();
  return {
    organizations: all('SELECT id, full_name, installed, json FROM organizations ORDER BY id') as { id: string }[],
    warehouses: all('SELECT organization_id, organization_name, can_write, credits_json, reservations_json FROM warehouses'),
  };
}

describe("an installation's feed", () => {
  it("reads an installation's own organization alone from its feed, and passes over the others a registry sends", async () => {
    // More public organizations than a page holds (the app's pages bring them, for the desk to keep those it names).
    for (let i = 0; i < 20; i++)
      ops.createOrganization(world.t.registry, { fullName: `Public Buyer ${i}`, countryCode: 'FR', verified: true });
    const again = await world.engine.run();
    expect(again.ok, JSON.stringify(again.results)).toBe(true);
    const firstSync = async (rewrite: (url: URL) => void) => {
      const installationPages: URLSearchParams[] = [];
      const client = clientThrough(world, (url, init) => {
        if (url.pathname === '/sync/v1/changes' && url.searchParams.has('kinds')) {
          rewrite(url);
          installationPages.push(url.searchParams);
        }
        return fetch(url, init);
      });
      const dir = makeDataDir('desk-cache-installation-');
      dirs.push(dir);
      const cache = openDeskCache(join(dir.dir, 'cache.sqlite'), { clock: world.t.clock });
      const engine = createSyncEngine({
        client,
        cache,
        clock: world.t.clock,
        installations: () => world.installations,
        tuning: { feedLimit: 16 },
      });
      try {
        const result = await engine.run();
        expect(result.ok, JSON.stringify(result.results)).toBe(true);
        expect(organizationsAndWarehouses(cache)).toEqual(organizationsAndWarehouses(world.cache));
        expect(organizationsAndWarehouses(cache).organizations.map((o) => o.id)).toContain(world.f.orgA);
      } finally {
        await engine.close();
        cache.close();
      }
      return installationPages;
    };
    // Narrowed to its organization: its record and its warehouse, one page.
    const narrowed = await firstSync(() => {});
    expect(narrowed.map((q) => [q.get('kinds'), q.get('organizationId')])).toEqual([['warehouse,organization', world.f.orgA]]);
    // A registry made before the narrowing ignores it and sends every organization, over pages.
    const everyOrganization = await firstSync((url) => url.searchParams.delete('organizationId'));
    expect(everyOrganization.length).toBeGreaterThan(1);
  });
});
