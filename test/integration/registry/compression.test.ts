// The registry's compressed answers over real HTTP (registry/http/compression.ts): JSON of 1 KiB or
// more in gzip or brotli when the client accepts it, with Vary; never small answers, PDFs, event
// streams or answers already encoded; a streamed JSON answer compressed chunk by chunk, its first
// chunk readable before the last is written. Read with node:http so nothing decodes behind our back.
import http from 'node:http';
import { brotliDecompressSync, createGunzip, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixture, type Fixture } from '@test/support/fixture';
import { compressedOnce } from '@registry/http/compression';
import { appToken, createTestApp, startTestRegistry, type TestRegistry } from '@test/support/registry';

let t: TestRegistry;
let f: Fixture;
let token = '';
// The streamed route writes its second chunk only once the test has read the first.
let releaseSecondChunk: () => void = () => {};

beforeAll(async () => {
  t = await startTestRegistry({
    setup: (r) => void (f = buildFixture(r)),
    extraRoutes: (app) => {
      const big = 'x'.repeat(64 * 1024);
      app.get('/__test__/pdf', (c) => c.body(Buffer.from(`%PDF-1.7 ${big}`), 200, { 'content-type': 'application/pdf' }));
      app.get('/__test__/events', (c) => c.body(`data: ${big}\n\n`, 200, { 'content-type': 'text/event-stream' }));
      app.get('/__test__/encoded', (c) =>
        c.body(gzipSync(JSON.stringify({ big })), 200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }),
      );
      app.get('/__test__/no-transform', (c) => c.json({ big }, 200, { 'cache-control': 'no-transform' }));
      app.get('/__test__/streamed', () => {
        const encoder = new TextEncoder();
        let step = 0;
        const stream = new ReadableStream<Uint8Array>({
          async pull(controller) {
            if (step === 0) controller.enqueue(encoder.encode(`[${JSON.stringify({ part: 1, big })}`));
            else if (step === 1) {
              await new Promise<void>((resolve) => (releaseSecondChunk = resolve));
              controller.enqueue(encoder.encode(`,${JSON.stringify({ part: 2, big })}]`));
            } else controller.close();
            step++;
          },
        });
        return new Response(stream, { headers: { 'content-type': 'application/json' } });
      });
    },
  });
  token = await appToken(t, createTestApp(t.registry));
});
afterAll(() => t.close());

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function get(path: string, acceptEncoding?: string, method = 'GET'): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (acceptEncoding !== undefined) headers['accept-encoding'] = acceptEncoding;
    const req = http.request(`${t.url}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('compressed answers', () => {
  it('sends a JSON answer of 1 KiB or more in gzip or brotli as the client asks, the same JSON', async () => {
    const plain = await get('/openapi.json');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.body.length).toBeGreaterThan(1024);

    const gzipped = await get('/openapi.json', 'gzip, deflate, br');
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers.vary).toMatch(/accept-encoding/i);
    expect(Number(gzipped.headers['content-length'])).toBe(gzipped.body.length);
    expect(gzipped.body.length).toBeLessThan(plain.body.length / 4);
    expect(gunzipSync(gzipped.body).equals(plain.body)).toBe(true);

    const brotli = await get('/openapi.json', 'br');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(brotli.body).equals(plain.body)).toBe(true);

    // A refused coding (q=0) is not used; none acceptable: as it is.
    expect((await get('/openapi.json', 'gzip;q=0, br')).headers['content-encoding']).toBe('br');
    expect((await get('/openapi.json', 'identity')).headers['content-encoding']).toBeUndefined();
  });

  it('compresses the contract endpoints alike', async () => {
    const plain = await get(`/projects/${f.projectId}`);
    const project = await get(`/projects/${f.projectId}`, 'gzip');
    expect(project.status).toBe(200);
    expect(project.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(project.body).toString('utf8')).toBe(plain.body.toString('utf8'));
    expect(plain.body.toString('utf8')).toContain(f.projectId);
  });

  it('compresses a cached page of projects once, and sends it as it is to who does not ask', async () => {
    const plain = await get('/projects?limit=100&page=0');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const [a, b] = [await get('/projects?limit=100&page=0', 'gzip'), await get('/projects?limit=100&page=0', 'gzip')];
    expect(a.headers['content-encoding']).toBe('gzip');
    expect(a.headers.vary).toMatch(/accept-encoding/i);
    expect(gunzipSync(a.body).equals(plain.body)).toBe(true);
    expect(b.body.equals(a.body)).toBe(true);
    const bytes = Buffer.from(JSON.stringify({ big: 'y'.repeat(4096) }));
    expect(compressedOnce(bytes, 'br')).toBe(compressedOnce(bytes, 'br'));
    expect(brotliDecompressSync(await compressedOnce(bytes, 'br')).equals(bytes)).toBe(true);
  });

  it('sends small answers as they are', async () => {
    const missing = await get('/projects/00000000-0000-4000-8000-000000000000', 'gzip');
    expect(missing.status).toBe(404);
    expect(missing.body.length).toBeLessThan(1024);
    expect(missing.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(missing.body.toString('utf8'))).toMatchObject({ statusCode: 404 });
  });

  it('never compresses PDFs, event streams, answers already encoded, no-transform or HEAD', async () => {
    for (const path of ['/__test__/pdf', '/__test__/events', '/__test__/no-transform']) {
      const answer = await get(path, 'gzip, br');
      expect(answer.headers['content-encoding'], path).toBeUndefined();
      expect(answer.body.length, path).toBeGreaterThan(64 * 1024);
    }
    const encoded = await get('/__test__/encoded', 'gzip');
    expect(encoded.headers['content-encoding']).toBe('gzip');
    expect((JSON.parse(gunzipSync(encoded.body).toString('utf8')) as { big: string }).big).toHaveLength(64 * 1024);
    const head = await get('/openapi.json', 'gzip', 'HEAD');
    expect(head.headers['content-encoding']).toBeUndefined();
  });

  it('compresses a streamed answer chunk by chunk: its first part arrives before the rest is written', async () => {
    const text = await new Promise<string>((resolve, reject) => {
      const req = http.request(`${t.url}/__test__/streamed`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
        expect(res.headers['content-encoding']).toBe('gzip');
        const gunzip = createGunzip();
        let decoded = '';
        gunzip.on('data', (chunk: Buffer) => {
          decoded += chunk.toString('utf8');
          // The first part whole, decoded while the server still holds the second back.
          if (decoded.includes('"part":1') && decoded.length > 64 * 1024) releaseSecondChunk();
        });
        gunzip.on('end', () => resolve(decoded));
        gunzip.on('error', reject);
        res.pipe(gunzip);
      });
      req.on('error', reject);
      req.end();
    });
    const parts = JSON.parse(text) as { part: number }[];
    expect(parts.map((p) => p.part)).toEqual([1, 2]);
  });
});
