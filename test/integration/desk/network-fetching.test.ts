// The desk's client over a real (simulated) network: a real registry behind a loopback TCP proxy
// that delays every chunk (test/support/delaying-proxy.ts). Compressed answers asked for and
// decoded on both transports; the request gate opening to fill a link with round trips, staying
// shut on a link that is full (both counted in round trips: test/support/round-trip-waves.ts); a
// 503's Retry-After holding every new request back.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchTransport, type HttpTransport } from '@desk/client/http';
import { nodeHttpTransport } from '@desk/client/node-http';
import { createRegistryClient, type RegistryClient } from '@desk/client/registry-client';
import type { TokenManager } from '@desk/client/tokens';
import { GATE_CAP } from '@desk/client/request-gate';
import { forEachLimited } from '@desk/sync/concurrency';
import { ManualClock } from '@platform/clock';
import { buildFixture, type Fixture } from '@test/support/fixture';
import { appToken, createTestApp, startTestRegistry, type TestRegistry } from '@test/support/registry';
import { startDelayingProxy, type DelayingProxy } from '@test/support/delaying-proxy';
import { roundTripWaves, type RoundTripWaves } from '@test/support/round-trip-waves';

let t: TestRegistry;
let f: Fixture;
let tokens: TokenManager;
const proxies: DelayingProxy[] = [];

beforeAll(async () => {
  t = await startTestRegistry({ setup: (r) => void (f = buildFixture(r)) });
  const token = await appToken(t, createTestApp(t.registry));
  tokens = { get: async () => token, invalidate: () => {} } as unknown as TokenManager;
});
afterAll(async () => {
  for (const proxy of proxies) await proxy.close();
  await t.close();
});

async function proxy(rttMs: number): Promise<DelayingProxy> {
  const target = new URL(t.url);
  const started = await startDelayingProxy({ target: { host: target.hostname, port: Number(target.port) }, rttMs });
  proxies.push(started);
  return started;
}

function client(
  url: string,
  options: {
    transport?: HttpTransport;
    compressed?: boolean;
    waves?: RoundTripWaves;
    roundTripMs?: number;
    gate?: { floor: number; cap: number };
  } = {},
): RegistryClient {
  const { waves, roundTripMs = 0 } = options;
  return createRegistryClient({
    baseUrl: url,
    tokens,
    clock: new ManualClock(0),
    timeoutMs: 20_000,
    ...(options.transport ? { transport: options.transport } : {}),
    ...(options.compressed !== undefined ? { compressed: options.compressed } : {}),
    // The gate timed in round trips: what it decides then depends on how many answers were in
    // flight together, not on how fast this loaded machine served them.
    ...(waves ? { fetch: waves.fetch, gate: { now: () => waves.rounds() * roundTripMs } } : {}),
    ...(options.gate ? { gate: options.gate } : {}),
  });
}

describe('compressed answers', () => {
  it('are asked for and decoded by both transports: the same text, fewer bytes on the wire', async () => {
    for (const [name, transport] of [
      ['fetch', fetchTransport(fetch)],
      ['node:http', nodeHttpTransport()],
    ] as const) {
      const plainLink = await proxy(0);
      const plain = await client(plainLink.url, { transport, compressed: false }).callRaw('getProject', { params: { id: f.projectId } });
      const zippedLink = await proxy(0);
      const zipped = await client(zippedLink.url, { transport, compressed: true }).callRaw('getProject', { params: { id: f.projectId } });
      expect(zipped.text, name).toBe(plain.text);
      expect(plain.text.length, name).toBeGreaterThan(1024);
      expect(zipped.headers.get('content-encoding'), name).toBe('gzip');
      expect(zippedLink.bytesDown, name).toBeLessThan(plainLink.bytesDown);
    }
  });
});

/** Asks for the fixture's project `count` times, as the sync does: all queued, the gate deciding. */
async function manyRequests(c: RegistryClient, count: number) {
  await forEachLimited(
    Array.from({ length: count }, (_, i) => i),
    c.maxInFlight,
    async () => void (await c.callRaw('getProject', { params: { id: f.projectId } })),
  );
  return c.gateStats();
}

describe('the request gate', () => {
  it('opens past the 8 of a local registry when answers take a long round trip, up to its cap', async () => {
    // Each answer is held until every request in flight has been answered (a round trip), and the
    // gate's clock moves 150 ms per round trip: timed by the wall clock, the registry's own time
    // (this process's, on 2 shared cores) made answers look queued and kept the gate shut.
    const waves = roundTripWaves();
    const stats = await waves.drive(manyRequests(client(t.url, { waves, roundTripMs: 150 }), 400));
    expect(stats.fastestMs).toBe(150);
    expect(stats.peakInFlight).toBeGreaterThanOrEqual(32);
    // 400 requests are 7 round trips, the last ones at the cap (126 in flight, the rest of them)
    expect(stats.limit).toBe(GATE_CAP);
    expect(stats.peakInFlight).toBeLessThanOrEqual(GATE_CAP);
  });

  it('keeps its connections and reuses them', async () => {
    // 8 in flight at a time, answered as they come (held in waves, a connection left idle for a
    // slow round on a loaded machine outlived its keep-alive: 250 connections for 300 requests).
    // The pool opens a fresh one when a reused socket is still finishing an answer (16 at load 25,
    // as many as 8 kept from the start and 8 more); 100 would mean no reuse.
    const link = await proxy(150);
    const stats = await manyRequests(client(link.url, { gate: { floor: 8, cap: 8 } }), 100);
    expect(stats.peakInFlight).toBe(8);
    expect(link.connections).toBeLessThanOrEqual(32);
  });

  it('closes back to 8 when the link is full: more in flight would only queue', async () => {
    // A link that carries 4 answers a round trip of 60 ms (~1.5 KiB answers on a 0.5 Mbit/s line
    // take ~24 ms of it each): the fifth answer in flight comes a round trip later, the ninth two.
    const waves = roundTripWaves({ answersPerRound: 4 });
    const stats = await waves.drive(manyRequests(client(t.url, { waves, roundTripMs: 60 }), 100));
    expect(stats.peakInFlight).toBeLessThanOrEqual(24);
    expect(stats.limit).toBeLessThanOrEqual(12);
  });
});

describe('a registry out of breath', () => {
  it("holds every new request back for a 503's Retry-After, and halves what it keeps in flight", async () => {
    let released = false;
    const arrivals: { refused: boolean; afterRelease: boolean }[] = [];
    const server = http.createServer((req, res) => {
      const refused = arrivals.length === 0;
      arrivals.push({ refused, afterRelease: released });
      if (refused) {
        res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '2' });
        res.end(JSON.stringify({ statusCode: 503, message: 'busy', error: 'Service Unavailable' }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ projectId: 'p', credits: [] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // The waits are ours to end: the client's sleep is injected.
    const sleeps: { ms: number; end: () => void }[] = [];
    const c = createRegistryClient({
      baseUrl: url,
      tokens,
      clock: new ManualClock(0),
      random: () => 0,
      sleep: (ms) => new Promise<void>((resolve) => sleeps.push({ ms, end: resolve })),
    });
    try {
      const ask = () => c.callRaw('getProjectCredits', { params: { id: '00000000-0000-4000-8000-000000000001' } });
      const first = ask();
      await expect.poll(() => sleeps.length).toBeGreaterThanOrEqual(2);
      // The gate's hold and the refused request's own wait: both the Retry-After, 2 s.
      expect(sleeps.map((s) => s.ms)).toEqual([2000, 2000]);
      expect(c.gateStats().limit).toBe(4);
      const later = [ask(), ask(), ask()];
      // A request sent meanwhile would reach the server before this probe's round trip ends.
      for (let i = 0; i < 3; i++) await fetch(`${url}/probe`).then((r) => r.text());
      expect(arrivals.filter((a) => !a.afterRelease).length).toBe(4); // the refused one and the 3 probes
      released = true;
      for (const s of sleeps) s.end();
      await Promise.all([first, ...later]);
      const asked = arrivals.filter((a) => a.afterRelease);
      expect(asked).toHaveLength(4);
      expect(asked.every((a) => !a.refused)).toBe(true);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
