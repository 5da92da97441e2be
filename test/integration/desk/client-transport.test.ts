// The sync worker's node:http transport (electron/core/desk/client/node-http.ts) against fetch's, on one
// real loopback server: the same answers read the same way, and its own timer, socket errors and
// error bodies turned into the client's error kinds. And over https, as a registry elsewhere is
// reached: a real TLS server on loopback with a certificate made for the run (openssl).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchTransport, type HttpTransport } from '@desk/client/http';
import { nodeHttpTransport, transportFor } from '@desk/client/node-http';
import { createRegistryClient, type RegistryClient } from '@desk/client/registry-client';
import { RegistryClientError } from '@desk/client/errors';
import { transparencyGet } from '@desk/verification/transport';
import type { TokenManager } from '@desk/client/tokens';
import { ManualClock } from '@platform/clock';

// A fixed Date: Node's own is the current second, and the two transports' requests, sent together,
// could be answered either side of a second's turn.
const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8', date: 'Thu, 26 Nov 2026 12:00:00 GMT' };
const routes: Record<string, (res: ServerResponse, req: IncomingMessage) => void> = {
  encoding: (res, req) => res.writeHead(200, JSON_TYPE).end(JSON.stringify(req.headers['accept-encoding'] ?? null)),
  bom: (res) => res.writeHead(200, JSON_TYPE).end('\ufeff{"ok":"é"}'),
  gzip: (res) => res.writeHead(200, { ...JSON_TYPE, 'content-encoding': 'gzip' }).end(gzipSync('{"zipped":true}')),
  repeated: (res) => res.writeHead(200, [...Object.entries(JSON_TYPE).flat(), 'x-note', 'one', 'x-note', 'two']).end('{}'),
  refusal: (res) =>
    res
      .writeHead(429, { ...JSON_TYPE, 'retry-after': '3' })
      .end(JSON.stringify({ statusCode: 429, message: ['slow down', 'really'], error: 'Too Many Requests' })),
  html: (res) => res.writeHead(502, 'Bad Gateway', { 'content-type': 'text/html' }).end('<h1>proxy</h1>'),
  streamed: (res) => {
    res.writeHead(200, JSON_TYPE);
    for (let i = 0; i < 4; i++) res.write(`${i}`.repeat(100_000));
    res.end();
  },
  silent: () => {},
  // As a registry that closed a kept-alive connection just as the desk sent on it: a request that
  // comes on a connection that already carried one is dropped unanswered.
  'drops-reused': (res, req) => {
    if (answeredOn.has(req.socket)) req.socket.destroy();
    else res.writeHead(200, JSON_TYPE).end(JSON.stringify(answeredOn.add(req.socket).size));
  },
  'half-body': (res) => {
    res.writeHead(200, { ...JSON_TYPE, 'content-length': '100' });
    res.write('{"partial":');
  },
};

const answeredOn = new Set<Socket>();
const answer = (req: IncomingMessage, res: ServerResponse) => routes[req.url!.split('/').pop()!]!(res, req);
const server = createServer(answer);
let baseUrl = '';
let closedPortUrl = '';
/** The https server's certificate (self-signed for 127.0.0.1), which Node's own list does not trust. */
let certificate = '';
let tlsServer: ReturnType<typeof createTlsServer> | undefined;
let tlsUrl = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dir = mkdtempSync(join(tmpdir(), 'client-transport-'));
  const args = ['-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-addext', 'subjectAltName=IP:127.0.0.1'];
  const generated = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      ...args,
    ],
    { encoding: 'utf8' },
  );
  if (generated.status !== 0) throw new Error(`openssl could not make a test certificate: ${generated.stderr}`);
  certificate = readFileSync(join(dir, 'cert.pem'), 'utf8');
  tlsServer = createTlsServer({ key: readFileSync(join(dir, 'key.pem')), cert: certificate }, answer);
  rmSync(dir, { recursive: true });
  await new Promise<void>((resolve) => tlsServer!.listen(0, '127.0.0.1', resolve));
  tlsUrl = `https://127.0.0.1:${(tlsServer.address() as AddressInfo).port}`;
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  closedPortUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
  await new Promise((resolve) => closed.close(resolve));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  tlsServer?.closeAllConnections();
  await new Promise((resolve) => (tlsServer ? tlsServer.close(resolve) : resolve(undefined)));
});

// Tokens are not what is tested here: a fixed bearer.
const tokens = { get: async () => 'rdt_fixed', invalidate: () => {} } as unknown as TokenManager;
// Answers that come are given all the time a loaded machine needs; the time-out test asks for 150 ms.
function client(kind: 'node' | 'fetch', url = baseUrl, timeoutMs = 10_000): RegistryClient {
  const transport = kind === 'node' ? nodeHttpTransport() : fetchTransport(fetch);
  return createRegistryClient({ baseUrl: url, tokens, clock: new ManualClock(0), transport, timeoutMs, retry: { maxAttempts: 1 } });
}
const get = (c: RegistryClient, id: string) => c.callRaw('getProjectCredits', { params: { id } });
async function failure(promise: Promise<unknown>): Promise<RegistryClientError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RegistryClientError);
  return error as RegistryClientError;
}

describe('the node:http transport', () => {
  it('reads answers as fetch does: BOM, gzip, repeated headers', async () => {
    for (const id of ['bom', 'gzip', 'repeated']) {
      const [viaNode, viaFetch] = await Promise.all([get(client('node'), id), get(client('fetch'), id)]);
      expect(viaNode.text).toBe(viaFetch.text);
      expect(viaNode.status).toBe(viaFetch.status);
      for (const name of ['content-type', 'x-note', 'date', 'absent'])
        expect([id, viaNode.headers.get(name), viaNode.headers.has(name)]).toEqual([
          id,
          viaFetch.headers.get(name),
          viaFetch.headers.has(name),
        ]);
    }
    // Its body as a stream of chunks, as fetch's (the client's callBytes itself keeps fetch).
    const streamed = async (transport: HttpTransport, id: string) => {
      const answer = await transport(`${baseUrl}/carbonCredits/projects/${id}`, {
        method: 'GET',
        headers: {},
        body: undefined,
        timeoutMs: 1000,
        where: id,
      });
      const chunks: Uint8Array[] = [];
      const reader = answer.body!.getReader();
      for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value);
      return Buffer.concat(chunks);
    };
    for (const id of ['bom', 'gzip', 'streamed']) {
      const [viaNode, viaFetch] = await Promise.all([streamed(nodeHttpTransport(), id), streamed(fetchTransport(fetch), id)]);
      expect([id, viaNode.equals(viaFetch), viaNode.length]).toEqual([id, true, viaFetch.length]);
    }
    expect((await get(client('node'), 'repeated')).headers.get('x-note')).toBe('one, two');
    expect((await get(client('node'), 'gzip')).text).toBe('{"zipped":true}');
  });

  it('turns error answers into the same errors as fetch', async () => {
    for (const id of ['refusal', 'html']) {
      const [viaNode, viaFetch] = await Promise.all([failure(get(client('node'), id)), failure(get(client('fetch'), id))]);
      expect({ ...viaNode, message: viaNode.message }).toEqual({ ...viaFetch, message: viaFetch.message });
    }
    const refused = await failure(get(client('node'), 'refusal'));
    expect([refused.kind, refused.status, refused.messages, refused.retryAfterS]).toEqual(['http', 429, ['slow down', 'really'], 3]);
  });

  it('times out a silent registry and one that stops mid-answer', async () => {
    const silent = await failure(get(client('node', baseUrl, 150), 'silent'));
    expect([silent.kind, silent.message]).toEqual([
      'timeout',
      'GET /carbonCredits/projects/silent: the registry did not answer within 150 ms',
    ]);
    const cut = await failure(get(client('node', baseUrl, 150), 'half-body'));
    expect([cut.kind, cut.message]).toEqual(['network', 'getProjectCredits: the answer was cut off']);
  });

  it('sends a request again, once, on a new connection when its kept-alive one was closed unanswered', async () => {
    const c = client('node');
    expect((await get(c, 'drops-reused')).text).toBe('1');
    // the second goes out on the first's connection, is dropped, and is answered on a second one
    expect((await get(c, 'drops-reused')).text).toBe('2');
  });

  it('reports a refused connection as never sent', async () => {
    const error = await failure(get(client('node', closedPortUrl), 'bom'));
    expect([error.kind, (error as { neverSent?: boolean }).neverSent, error.message]).toEqual([
      'network',
      true,
      'GET /carbonCredits/projects/bom: the registry is unreachable (ECONNREFUSED)',
    ]);
  });

  it('speaks https with the certificates it trusts, and refuses others as fetch does', async () => {
    const trusting = nodeHttpTransport(undefined, { ca: certificate });
    const c = createRegistryClient({ baseUrl: tlsUrl, tokens, clock: new ManualClock(0), transport: trusting, retry: { maxAttempts: 1 } });
    expect((await get(c, 'gzip')).text).toBe('{"zipped":true}');
    expect((await get(c, 'repeated')).headers.get('x-note')).toBe('one, two');
    // A registry at an https address goes over node:https with Node's own list, where this certificate is not.
    const request = { method: 'GET', headers: {}, body: undefined, timeoutMs: 10_000, where: 'bom' } as const;
    await expect(transportFor(tlsUrl)(`${tlsUrl}/carbonCredits/projects/bom`, request)).rejects.toMatchObject({
      code: 'DEPTH_ZERO_SELF_SIGNED_CERT',
    });
    const [viaNode, viaFetch] = await Promise.all([
      failure(get(client('node', tlsUrl), 'bom')),
      failure(get(client('fetch', tlsUrl), 'bom')),
    ]);
    expect([viaNode.kind, viaNode.message]).toEqual([
      'network',
      'GET /carbonCredits/projects/bom: the registry is unreachable (DEPTH_ZERO_SELF_SIGNED_CERT)',
    ]);
    expect(viaNode.message).toBe(viaFetch.message);
  });

  it("carries the history check's GETs, uncompressed on this computer, as the registry client asks", async () => {
    // fetch would ask gzip of a registry on loopback, which costs both ends CPU for nothing
    const get = transparencyGet(baseUrl);
    expect(await get('/transparency/v1/encoding')).toEqual({ status: 200, text: '"identity"' });
    expect(await get('/transparency/v1/gzip')).toEqual({ status: 200, text: '{"zipped":true}' });
    await expect(transparencyGet(closedPortUrl)('/transparency/v1/key')).rejects.toMatchObject({ kind: 'network' });
  });
});
