import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createTokenManager } from '@desk/client/tokens';
import { clientFor } from '@desk/connection-runtime';
import { ManualClock } from '@platform/clock';
import type { FetchLike } from '@desk/client/http';
import { rsaKeyPair } from '@test/support/registry';
import { startDeskWorld, type DeskWorld } from '@test/support/desk-support';

let world: DeskWorld | undefined;
let front: Server | undefined;
afterEach(async () => {
  front?.closeAllConnections();
  await new Promise((resolve) => (front ? front.close(resolve) : resolve(undefined)));
  front = undefined;
  await world?.close();
  world = undefined;
});

/**
 * A front for the registry at `registryUrl` that records each request it is sent (its path and the
 * connection it came on). With `dropReused` it behaves as a registry closing a kept-alive connection
 * just as the desk sends on it: a request on a connection that already carried one is dropped
 * unanswered; a first request is passed on.
 */
async function startFront(
  registryUrl: string,
  dropReused: boolean,
): Promise<{ url: string; received: { path: string; connection: number }[] }> {
  const connections = new Map<Socket, number>();
  const received: { path: string; connection: number }[] = [];
  front = createServer((req, res) => {
    const reused = connections.has(req.socket);
    if (!reused) connections.set(req.socket, connections.size);
    received.push({ path: req.url ?? '', connection: connections.get(req.socket)! });
    if (dropReused && reused) return void req.socket.destroy();
    const body: Buffer[] = [];
    req.on('data', (chunk: Buffer) => body.push(chunk));
    req.on('end', () => {
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([name]) => name !== 'host' && name !== 'connection'),
      ) as Record<string, string>;
      const sent = req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.concat(body);
      void fetch(registryUrl + req.url, { method: req.method, headers, body: sent }).then(async (answer) => {
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
        res.end(Buffer.from(await answer.arrayBuffer()));
      });
    });
  });
  await new Promise<void>((resolve) => front!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(front.address() as AddressInfo).port}`, received };
}

/** The app's key as the desk's stores hand it out. */
const pemOf = (w: DeskWorld) => w.app.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

function counting() {
  const calls: string[] = [];
  const fetchFn: FetchLike = (input, init) => {
    calls.push(new URL(input instanceof Request ? input.url : input).pathname);
    return fetch(input, init);
  };
  return { calls, fetchFn };
}

describe('token manager', () => {
  it('caches tokens per scope, shares one request among concurrent callers, and refreshes ahead of expiry', async () => {
    world = await startDeskWorld();
    // Desk and registry share one clock here, so the JWTs minted after moving it stay valid.
    const deskClock = world.t.clock;
    const { calls, fetchFn } = counting();
    let keyReads = 0;
    const tokens = createTokenManager({
      baseUrl: world.t.url,
      appId: world.app.id,
      loadPrivateKey: async () => (keyReads++, world!.app.privateKey),
      clock: deskClock,
      fetch: fetchFn,
    });
    const [a, b, c] = await Promise.all([tokens.get({ kind: 'app' }), tokens.get({ kind: 'app' }), tokens.get({ kind: 'app' })]);
    expect(new Set([a, b, c]).size).toBe(1);
    expect(calls).toEqual(['/app/accessTokens']);
    expect((await tokens.grant({ kind: 'app' })).permissions).toEqual({ examiner: 'READ' });
    const inst = await tokens.get({ kind: 'installation', installationId: world.installationId });
    expect(inst).not.toBe(a);
    expect(await tokens.get({ kind: 'installation', installationId: world.installationId })).toBe(inst);
    expect(calls).toHaveLength(2);
    expect(keyReads).toBe(2); // the key is read for each JWT, never kept

    // The installation token lives 2 h: 1 h 54 min later it is still used, at 1 h 56 min it is replaced.
    deskClock.advance(114 * 60 * 1000);
    expect(await tokens.get({ kind: 'installation', installationId: world.installationId })).toBe(inst);
    deskClock.advance(2 * 60 * 1000);
    const renewed = await tokens.get({ kind: 'installation', installationId: world.installationId });
    expect(renewed).not.toBe(inst);
    // and the registry accepts the new one
    const res = await world.t.call(`/organizations/${world.f.orgA}/warehouse/inventory`, { token: renewed });
    expect(res.status).toBe(200);
  });

  it("stamps its JWTs on the registry's clock, so a desk whose clock is 11 minutes behind still gets tokens", async () => {
    world = await startDeskWorld();
    const behind = 11 * 60_000;
    const deskClock = new ManualClock(world.t.clock.now() - behind);
    const options = { baseUrl: world.t.url, appId: world.app.id, loadPrivateKey: async () => world!.app.privateKey, clock: deskClock };
    // on the desk's own clock the JWT has expired by the registry's (it lives 10 minutes)
    await expect(createTokenManager(options).get({ kind: 'app' })).rejects.toThrow(/expired/i);
    const tokens = createTokenManager({ ...options, registryClockOffsetMs: () => behind });
    const res = await world.t.call(`/organizations/${world.f.orgA}/warehouse/inventory`, {
      token: await tokens.get({ kind: 'installation', installationId: world.installationId }),
    });
    expect(res.status).toBe(200);
  });

  it('invalidate drops only the refused token', async () => {
    world = await startDeskWorld();
    const tokens = createTokenManager({
      baseUrl: world.t.url,
      appId: world.app.id,
      loadPrivateKey: async () => world!.app.privateKey,
      clock: world.t.clock,
    });
    const first = await tokens.get({ kind: 'app' });
    tokens.invalidate({ kind: 'app' }, 'rdt_some_other_token');
    expect(await tokens.get({ kind: 'app' })).toBe(first);
    tokens.invalidate({ kind: 'app' }, first);
    expect(await tokens.get({ kind: 'app' })).not.toBe(first);
  });

  it('asks again, once, on a new connection when the kept-alive one was closed under its request', async () => {
    world = await startDeskWorld();
    const { calls, fetchFn } = counting();
    const tokens = createTokenManager({
      baseUrl: (await startFront(world.t.url, true)).url,
      appId: world.app.id,
      loadPrivateKey: async () => world!.app.privateKey,
      clock: world.t.clock,
      fetch: fetchFn,
    });
    const first = await tokens.get({ kind: 'app' });
    tokens.invalidate({ kind: 'app' });
    // sent on the first request's connection, dropped there, and asked again (with a fresh JWT) on a new one
    const second = await tokens.get({ kind: 'app' });
    expect(second).not.toBe(first);
    expect(calls).toEqual(['/app/accessTokens', '/app/accessTokens', '/app/accessTokens']);
    const res = await world.t.call(`/organizations/${world.f.orgA}/warehouse/inventory`, { token: second });
    expect(res.status).not.toBe(401);
  });

  it("sends its requests on the registry client's connections, kept alive between them", async () => {
    world = await startDeskWorld();
    const { url, received } = await startFront(world.t.url, false);
    const client = clientFor({
      baseUrl: url,
      appId: world.app.id,
      loadPrivateKey: async () => pemOf(world!),
      clock: world.t.clock,
    });
    await client.call('listProjects', { query: { page: 0, limit: 10 } });
    // the app token asked, then the call sent on the connection the token's answer came on
    expect(received.map((r) => r.path)).toEqual(['/app/accessTokens', '/projects?page=0&limit=10']);
    expect(received.map((r) => r.connection)).toEqual([0, 0]);
  });

  it("asks again with a JWT signed anew when the client's kept-alive connection was closed under it", async () => {
    world = await startDeskWorld();
    const { url, received } = await startFront(world.t.url, true);
    let keyReads = 0;
    const client = clientFor({
      baseUrl: url,
      appId: world.app.id,
      loadPrivateKey: async () => (keyReads++, pemOf(world!)),
      clock: world.t.clock,
    });
    const first = await client.tokens.get({ kind: 'app' });
    client.tokens.invalidate({ kind: 'app' });
    const second = await client.tokens.get({ kind: 'app' });
    expect(second).not.toBe(first);
    // dropped on the first one's connection, then sent on a new one by the token manager, with a
    // JWT of its own: the transport did not send the dropped request (and its JWT) again itself
    expect(received).toEqual([
      { path: '/app/accessTokens', connection: 0 },
      { path: '/app/accessTokens', connection: 0 },
      { path: '/app/accessTokens', connection: 1 },
    ]);
    expect(keyReads).toBe(3);
  });

  it('reports an unreadable or wrong key clearly, without the key in the message', async () => {
    world = await startDeskWorld();
    const pem = rsaKeyPair(0).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const broken = createTokenManager({
      baseUrl: world.t.url,
      appId: world.app.id,
      loadPrivateKey: async () => pem.slice(0, 200),
      clock: world.t.clock,
    });
    const e1 = (await broken.get({ kind: 'app' }).catch((e: unknown) => e)) as Error & { kind: string };
    expect(e1.kind).toBe('key_unavailable');
    expect(e1.message).not.toContain(pem.slice(30, 80));
    const locked = createTokenManager({
      baseUrl: world.t.url,
      appId: world.app.id,
      loadPrivateKey: async () => {
        throw new Error('keychain locked');
      },
      clock: world.t.clock,
    });
    await expect(locked.get({ kind: 'app' })).rejects.toMatchObject({
      kind: 'key_unavailable',
      message: expect.stringContaining('keychain locked'),
    });
    // A PEM string is accepted; a key the registry does not know is a 401.
    const stranger = createTokenManager({
      baseUrl: world.t.url,
      appId: world.app.id,
      loadPrivateKey: async () => rsaKeyPair(1).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      clock: world.t.clock,
    });
    await expect(stranger.get({ kind: 'app' })).rejects.toMatchObject({ kind: 'http', status: 401 });
    const good = createTokenManager({ baseUrl: world.t.url, appId: world.app.id, loadPrivateKey: async () => pem, clock: world.t.clock });
    expect(await good.get({ kind: 'app' })).toMatch(/^rdt_/);
  });
});
