// The seed steps' requests asked ahead (desk/sync/prefetch.ts): a step whose calls depend on no
// earlier step's writes has them sent while the earlier steps run, so over a network it does not
// begin with a round trip of its own. Counted in round trips (test/support/round-trip-waves.ts:
// every answer held until all in flight are answered), never timed.
import { afterEach, describe, expect, it } from 'vitest';
import { SYNC_RESOURCES } from '@shared/desk/api';
import { startDeskWorld, type DeskWorld } from '@test/support/desk-support';
import { roundTripWaves } from '@test/support/round-trip-waves';
import type { FetchLike } from '@desk/client/http';

let world: DeskWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** The round trips the requests whose path (and query) match were sent in. */
function roundsOf(sentIn: Map<string, number>, pattern: RegExp): number[] {
  return [...sentIn].filter(([path]) => pattern.test(path)).map(([, round]) => round);
}

describe('a first sync through the seed interface', () => {
  it("asks the independent steps' first requests while the steps before them run, and each only once", async () => {
    const waves = roundTripWaves();
    // Every request the steps send, by path and query (sentIn keeps one round per request text).
    const sent: string[] = [];
    const fetch: FetchLike = (input, init) => {
      const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
      sent.push(`${url.pathname}${url.search}`);
      return waves.fetch(input, init);
    };
    world = await startDeskWorld({ projects: 30, retirements: 40, client: { fetch }, tuning: { pageSize: 10, feed: false } });
    const result = await waves.drive(world.engine.run());
    expect(result.ok, JSON.stringify(result.results)).toBe(true);
    // The steps still end in run order: each its own transaction, in its turn.
    expect(Object.keys(result.results)).toEqual(SYNC_RESOURCES.filter((r) => r in result.results));
    const { sentIn } = waves;
    const first = sentIn.get('/projects?page=0&limit=10')!;
    expect(first).toBeDefined();
    // The internal list's first page is asked by the pass, before any step, to learn the examiner
    // grant (pass.ts); its step takes it (nothing is asked twice, below).
    expect(sentIn.get('/projects/internal?page=0&limit=10')).toBeLessThan(first);
    const inventories = roundsOf(sentIn, /^\/carbonCredits\/icr\/inventory\//);
    expect(inventories).toHaveLength(3);
    expect(inventories.every((round) => round === first)).toBe(true);
    // Once the lists are in (the organizations' records need the proponents they name; the
    // retirements' pages would have queued before theirs), beside the per-project answers.
    const answers = roundsOf(sentIn, /^\/projects\/internal\/[^/?]+$/);
    const organizations = roundsOf(sentIn, /^\/v1\/organizations\//);
    expect(organizations.length).toBeGreaterThan(0);
    expect(Math.max(...organizations)).toBeLessThanOrEqual(Math.max(...answers));
    // (The retirements' later pages go out a round trip after their first, which tells the total.)
    expect(roundsOf(sentIn, /^\/v1\/retirements\?page=0&/)[0]).toBeLessThanOrEqual(Math.max(...answers));
    // The warehouse's once its installation's token is in (a request this count does not hold).
    const warehouse = roundsOf(sentIn, /\/warehouse\/inventory(\/reservations\?page=0&.*)?$/);
    expect(warehouse).toHaveLength(2);
    expect(Math.max(...warehouse)).toBeLessThan(Math.max(...answers));
    // Nothing asked twice: the steps took what was asked ahead.
    expect(new Set(sent).size).toBe(sent.length);
    expect(world.cache.countRetirements()).toBe(40);
    expect(sent.filter((path) => path.startsWith('/v1/retirements?'))).toHaveLength(4);
  });

  it('fills the whole cache and, on a re-sync, still asks only the newest retirements', async () => {
    world = await startDeskWorld({ projects: 12, retirements: 35, tuning: { pageSize: 10, feed: false } });
    expect((await world.engine.run()).ok).toBe(true);
    expect(world.cache.countRetirements()).toBe(35);
    world.requests.clear();
    const again = await world.engine.run();
    expect(again.ok, JSON.stringify(again.results)).toBe(true);
    // Its first page asked ahead, it stops there as before: nothing new below the newest.
    expect(world.requests.get('/v1/retirements')).toBe(1);
    expect(world.requests.get('/carbonCredits/icr/inventory/buffer')).toBe(1);
  });
});
