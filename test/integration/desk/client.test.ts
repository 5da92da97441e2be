import { createServer, type Server } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { serve } from '@hono/node-server';
import { createRegistryClient, filenameFromDisposition } from '@desk/client/registry-client';
import { isLoopbackUrl } from '@desk/client/http';
import { RegistryClientError } from '@desk/client/errors';
import { createTokenManager } from '@desk/client/tokens';
import { ManualClock } from '@platform/clock';
import { startDeskWorld, type DeskWorld } from '@test/support/desk-support';
import { rsaKeyPair } from '@test/support/registry';

let world: DeskWorld | undefined;
const extra: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await world?.close();
  world = undefined;
  for (const c of extra.splice(0)) await c.close();
});

/** A stand-in registry for answers the real one never gives: wrong shapes, 500s, extra fields. */
async function startFake(routes: (app: Hono) => void): Promise<{ url: string; hits: Map<string, number> }> {
  const app = new Hono();
  const hits = new Map<string, number>();
  app.use('*', async (c, next) => {
    hits.set(`${c.req.method} ${c.req.path}`, (hits.get(`${c.req.method} ${c.req.path}`) ?? 0) + 1);
    await next();
  });
  app.post('/app/accessTokens', (c) =>
    c.json({
      id: 't1',
      createdAt: '2024-01-01T00:00:00.000Z',
      updatedAt: '2024-01-01T00:00:00.000Z',
      token: 'rdt_fake',
      expiresAt: '2024-01-01T01:00:00.000Z',
      isActive: true,
      permissions: {},
      appId: 'app',
    }),
  );
  routes(app);
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  extra.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
}

function fakeClient(url: string, sleeps: number[] = []) {
  const clock = new ManualClock(Date.parse('2024-01-01T00:00:00.000Z'));
  const tokens = createTokenManager({ baseUrl: url, appId: 'app', loadPrivateKey: async () => rsaKeyPair(0).privateKey, clock });
  return createRegistryClient({
    baseUrl: url,
    tokens,
    clock,
    // Generous: a slow answer on a loaded machine must not turn into a timeout and an extra retry
    // (the retry counts are what some tests check); the hung-server test builds its own client.
    timeoutMs: 10_000,
    sleep: async (ms) => void sleeps.push(ms),
    retry: { maxAttempts: 3 },
  });
}

const project = (extraFields: Record<string, unknown> = {}) => ({
  id: 'p1',
  num: '7',
  fullName: 'P',
  description: '',
  shortDescription: '',
  publicUrl: 'u',
  registry: 'ICR',
  status: 'validated',
  startDate: '2020-01-01T00:00:00.000Z',
  creditingPeriodStartDate: '2020-01-01T00:00:00.000Z',
  estimatedAnnualMitigations: [],
  sector: { id: 's', title: 'S' },
  otherBenefits: [],
  proponents: [],
  validators: [],
  methodology: { id: 'm', title: 'M' },
  type: { id: 't', title: 'T', description: '' },
  documentation: [],
  ...extraFields,
});

describe('typed registry client', () => {
  it('calls the real registry with typed, validated answers and measures the clock offset', async () => {
    world = await startDeskWorld();
    const page = await world.client.call('listProjects', { query: { page: 0, limit: 10 } });
    expect(page.projects.map((p) => p.id)).toEqual([world.f.projectId]);
    const warehouse = await world.client.call('getWarehouseInventory', {
      params: { id: world.f.orgA },
      installationId: world.installationId,
    });
    expect(warehouse.credits[0]?.amount).toBe(500);
    expect(Math.abs(world.client.clockOffsetMs()!)).toBeLessThan(2000);
  });

  it('refuses bad input before sending and needs an installation for organization endpoints', async () => {
    world = await startDeskWorld();
    const before = world.requests.size;
    await expect(
      world.client.call('createReservation', {
        params: { id: world.f.orgA },
        installationId: world.installationId,
        body: { creditId: 'x', amount: -1 },
      }),
    ).rejects.toMatchObject({
      kind: 'invalid_request',
    });
    await expect(world.client.call('getWarehouseInventory', { params: { id: world.f.orgA } })).rejects.toMatchObject({
      kind: 'invalid_request',
    });
    expect(world.requests.size).toBe(before);
  });

  it('reports registry errors with status and message, and never puts the token in it', async () => {
    world = await startDeskWorld();
    const error = (await world.client.call('getRetirement', { query: { id: 'nope' } }).catch((e: unknown) => e)) as RegistryClientError;
    expect(error).toBeInstanceOf(RegistryClientError);
    expect(error.kind).toBe('http');
    expect(error.status).toBe(404);
    expect(error.message).toContain('nope');
    expect(error.message).not.toMatch(/rdt_|Bearer|eyJ/);
  });

  it('honours Retry-After on 429 and then succeeds', async () => {
    world = await startDeskWorld({ rateLimit: { requests: 2, windowMs: 1000 } });
    const started = Date.now();
    for (let i = 0; i < 4; i++) await world.client.call('listProjects', { query: { page: 0, limit: 1 } });
    // 4 calls at 2 per second: the client must have waited for the bucket (at least one Retry-After of 1 s).
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('tolerates unknown extra fields and rejects a wrong shape with the schema issues', async () => {
    const fake = await startFake((app) => {
      app.get('/projects', (c) =>
        c.json({
          pagination: { total: 1, currentPage: 0, pageCount: 1, nextPage: null, prevPage: null, cursor: 'x' },
          projects: [project({ brandNew: 1 })],
        }),
      );
      app.get('/projects/internal', (c) => c.json({ pagination: { total: 1 }, projects: [{ id: 5 }] }));
    });
    const client = fakeClient(fake.url);
    const page = await client.call('listProjects', { query: { page: 0, limit: 10 } });
    expect(page.projects[0]).not.toHaveProperty('brandNew');
    const error = (await client
      .call('listInternalProjects', { query: { page: 0, limit: 10 } })
      .catch((e: unknown) => e)) as RegistryClientError;
    expect(error.kind).toBe('invalid_response');
    expect(error.messages.join('\n')).toMatch(/projects\.0\.id/);
    expect(error.messages.join('\n')).toMatch(/pagination\.currentPage/);
  });

  it('retries GETs on 5xx with backoff but never repeats a POST the server received', async () => {
    let gets = 0;
    const fake = await startFake((app) => {
      app.get('/carbonCredits/icr/inventory/buffer', (c) => {
        gets++;
        return gets < 3
          ? c.json({ statusCode: 503, message: 'busy', error: 'Service Unavailable' }, 503)
          : c.json({
              summary: { exPost: 1, exAnte: 0, retired: 0 },
              organization: { fullName: 'R', logo: '', id: 'r', publicUrl: '' },
              credits: [],
            });
      });
      app.post('/retirements/finalize', (c) => c.json({ statusCode: 500, message: 'boom', error: 'Internal Server Error' }, 500));
    });
    const sleeps: number[] = [];
    const client = fakeClient(fake.url, sleeps);
    const inventory = await client.call('getBufferInventory');
    expect(inventory.summary.exPost).toBe(1);
    expect(gets).toBe(3);
    expect(sleeps).toHaveLength(2);
    expect(sleeps[1]!).toBeGreaterThanOrEqual(sleeps[0]! / 2); // exponential, jittered
    const body = {
      signer: `0x${'a'.repeat(40)}`,
      signature: `0x${'ab'.repeat(65)}`, // 65 bytes, as the schema requires
      signedData: { beneficiary: 'B', comment: '', reason: 'R', projectAddress: `0x${'b'.repeat(40)}`, tokenId: '1' },
    };
    await expect(client.call('finalizeRetirement', { body })).rejects.toMatchObject({ kind: 'http', status: 500 });
    expect(fake.hits.get('POST /retirements/finalize')).toBe(1);
  });

  it('times out a hung request and reports a refused connection as network', async () => {
    const hung: Server = createServer(() => {});
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    extra.push({
      close: () =>
        new Promise<void>((resolve) => {
          hung.closeAllConnections();
          hung.close(() => resolve());
        }),
    });
    const url = `http://127.0.0.1:${(hung.address() as AddressInfo).port}`;
    const fake = await startFake(() => {});
    // The token comes from the fake; the hung server only gets the data call.
    const clock = new ManualClock(Date.now());
    const tokens = createTokenManager({ baseUrl: fake.url, appId: 'app', loadPrivateKey: async () => rsaKeyPair(0).privateKey, clock });
    const client = createRegistryClient({ baseUrl: url, tokens, clock, timeoutMs: 200, sleep: async () => {}, retry: { maxAttempts: 2 } });
    await expect(client.call('getBufferInventory')).rejects.toMatchObject({ kind: 'timeout' });
    const closedPort = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const port = (s.address() as AddressInfo).port;
        s.close(() => resolve(port));
      });
    });
    const refused = createRegistryClient({
      baseUrl: `http://127.0.0.1:${closedPort}`,
      tokens,
      clock,
      sleep: async () => {},
      retry: { maxAttempts: 2 },
    });
    const error = (await refused.call('getBufferInventory').catch((e: unknown) => e)) as RegistryClientError;
    expect(error.kind).toBe('network');
    expect(error.unreachable).toBe(true);
  });

  it('asks a registry on this machine for uncompressed answers, and only such a registry', async () => {
    const encodings: (string | undefined)[] = [];
    const fake = await startFake((app) => {
      app.get('/projects', (c) => {
        encodings.push(c.req.header('accept-encoding'));
        return c.json({
          pagination: { total: 0, currentPage: 0, pageCount: 0, nextPage: null, prevPage: null, cursor: 'x' },
          projects: [],
        });
      });
    });
    await fakeClient(fake.url).callRaw('listProjects', { query: { limit: 1 } });
    expect(encodings).toEqual(['identity']);
    for (const local of ['http://127.0.0.1:4000', 'http://localhost:4000/', 'http://[::1]:4000', 'http://127.8.0.1', 'HTTP://LOCALHOST'])
      expect(isLoopbackUrl(local), local).toBe(true);
    for (const remote of [
      'https://registry.example.org',
      'http://10.0.0.1:4000',
      'http://127.0.0.1.example.org',
      'http://[::2]',
      'not a url',
    ])
      expect(isLoopbackUrl(remote), remote).toBe(false);
  });

  it('reads bytes into the buffers the caller gives, past a Content-Length smaller than the body', async () => {
    // A gzip answer's Content-Length counts the compressed bytes; a streamed one declares none.
    const body = JSON.stringify({ changes: Array.from({ length: 2000 }, (_, i) => ({ i, name: `Ḩarrat ${i}` })) });
    const fake = await startFake((app) => {
      app.get('/sync/v1/changes', (c) =>
        c.req.query('cursor') === 'gzip'
          ? c.body(gzipSync(body), 200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
          : c.body(
              new ReadableStream({
                start(controller) {
                  const bytes = Buffer.from(body);
                  for (let at = 0; at < bytes.length; at += 1000) controller.enqueue(bytes.subarray(at, at + 1000));
                  controller.close();
                },
              }),
              200,
              { 'content-type': 'application/json' },
            ),
      );
    });
    const client = fakeClient(fake.url);
    const given: Buffer[] = [];
    const into = (size: number) => {
      given.push(Buffer.alloc(size));
      return given.at(-1)!;
    };
    for (const cursor of ['gzip', 'stream']) {
      given.length = 0;
      const { bytes } = await client.callBytes('getChanges', { query: { cursor, limit: 1 } }, into);
      expect(bytes.toString('utf8'), cursor).toBe(body);
      expect(given.length, cursor).toBeGreaterThan(1);
      expect(bytes.buffer, cursor).toBe(given.at(-1)!.buffer);
    }
  });

  it('reads the certificate file name from Content-Disposition, as a base name only', () => {
    expect(filenameFromDisposition('attachment; filename=retirement-42.pdf', 'x.pdf')).toBe('retirement-42.pdf');
    expect(filenameFromDisposition('attachment; filename="a b.pdf"', 'x.pdf')).toBe('a b.pdf');
    expect(filenameFromDisposition("attachment; filename*=UTF-8''M%C3%BCller.pdf", 'x.pdf')).toBe('Müller.pdf');
    expect(filenameFromDisposition('attachment; filename=../../etc/passwd', 'x.pdf')).toBe('passwd');
    expect(filenameFromDisposition(null, 'x.pdf')).toBe('x.pdf');
  });
});
