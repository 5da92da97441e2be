// The web host over real HTTP on loopback, in front of a real desk service (embedded registry in a
// temporary folder): who may load the page and drive the API, the CSP, the event stream.
import { mkdirSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AdjustableClock } from '@platform/clock';
import { createDeskService, type DeskService } from '@desk/service';
import { seedDemo } from '@registry/seed';
import { startWebHost, type RunningWebHost } from '@desk/web-host/server';
import { makeDataDir, rsaKeyPair } from '@test/support/registry';

let data: { dir: string; remove(): void };
let desk: DeskService;
let host: RunningWebHost;
let clockHost: RunningWebHost;
let testClock: AdjustableClock;
let rendererDir: string;
/** The session the page tests obtained on `host` (its launch secret is spent there). */
let hostSession: { cookie: string; csrf: string };

/** Opens the page with the launch address: the session cookie and the CSRF token of that one load. */
async function launch(h: RunningWebHost): Promise<{ cookie: string; csrf: string }> {
  const response = await fetch(h.launchUrl);
  expect(response.status).toBe(200);
  const cookie = response.headers.get('set-cookie')!.split(';')[0]!;
  const csrf = /<meta name="desk-csrf" content="([^"]+)">/.exec(await response.text())![1]!;
  return { cookie, csrf };
}

/** A raw request, for headers fetch will not let us set (Host). */
function raw(url: string, headers: Record<string, string>, method = 'GET'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  data = makeDataDir('desk-web-host-');
  rendererDir = join(data.dir, 'renderer');
  mkdirSync(join(rendererDir, 'assets'), { recursive: true });
  writeFileSync(
    join(rendererDir, 'index.html'),
    '<!doctype html><html><head><title>desk</title></head><body><script type="module" src="/assets/app.js"></script></body></html>',
  );
  writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log("desk")');
  testClock = new AdjustableClock();
  desk = await createDeskService({
    dataDir: join(data.dir, 'desk'),
    host: 'web',
    version: 'test',
    clock: testClock,
    seedDemo: (r, o) => void seedDemo(r, o),
    autoSync: false,
  });
  host = await startWebHost({ desk, rendererDir });
  clockHost = await startWebHost({
    desk,
    rendererDir,
    testClock: {
      advance: (ms) => {
        testClock.advance(ms);
        return testClock.offset;
      },
    },
  });
}, 120_000);

afterAll(async () => {
  await host?.close();
  await clockHost?.close();
  await desk?.close();
  data?.remove();
});

describe('the page', () => {
  it('is refused without the launch secret', async () => {
    expect((await fetch(`${host.url}/`)).status).toBe(403);
    expect((await fetch(`${host.url}/?launch=wrong`)).status).toBe(403);
  });

  it('spends the launch secret once: session cookie and CSRF token on that load, strict CSP', async () => {
    const first = await fetch(host.launchUrl);
    expect(first.status).toBe(200);
    const cookie = first.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^desk_session=[\w-]{20,};/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    const csp = first.headers.get('content-security-policy')!;
    for (const directive of [
      "default-src 'self'",
      "script-src 'self'",
      "connect-src 'self'",
      "object-src 'none'",
      "frame-ancestors 'none'",
      "base-uri 'none'",
    ]) {
      expect(csp).toContain(directive);
    }
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).not.toMatch(/https?:/);
    const html = await first.text();
    expect(html).toMatch(/<meta name="desk-csrf" content="[\w-]{20,}">/);
    hostSession = { cookie: cookie.split(';')[0]!, csrf: /<meta name="desk-csrf" content="([^"]+)">/.exec(html)![1]! };

    // The same launch address again, without the cookie: refused.
    const again = await fetch(host.launchUrl);
    expect(again.status).toBe(403);
    expect(again.headers.get('set-cookie')).toBeNull();

    // A reload with the cookie gets the page, but never the token again.
    const reload = await fetch(host.launchUrl, { headers: { cookie: cookie.split(';')[0]! } });
    expect(reload.status).toBe(200);
    expect(await reload.text()).not.toContain('desk-csrf');
  });

  it('serves assets with the CSP and refuses path traversal', async () => {
    const asset = await fetch(`${host.url}/assets/app.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    for (const path of ['/assets/%2e%2e/%2e%2e/%2e%2e/etc/passwd', '/..%2f..%2f..%2fetc%2fpasswd', '/assets/..%5c..%5cetc%5cpasswd']) {
      const res = await raw(`${host.url}${path}`, { host: `127.0.0.1:${host.port}` });
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.body).not.toContain('root:');
    }
  });
});

describe('the API', () => {
  let session: { cookie: string; csrf: string };
  beforeAll(async () => {
    session = await launch(clockHost);
  });
  const invoke = (h: RunningWebHost, method: string, body: unknown, headers: Record<string, string>) =>
    fetch(`${h.url}/api/invoke/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  it('answers a call carrying the cookie and the CSRF header', async () => {
    const res = await invoke(clockHost, 'system.info', {}, { cookie: session.cookie, 'x-desk-csrf': session.csrf, origin: clockHost.url });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true, value: { host: 'web', version: 'test' } });
  });

  it('returns contract errors as DeskResults', async () => {
    const res = await invoke(clockHost, 'projects.search', { limit: -1 }, { cookie: session.cookie, 'x-desk-csrf': session.csrf });
    expect(await res.json()).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });

  it('refuses a call without the session cookie, without or with a wrong CSRF token', async () => {
    expect((await invoke(clockHost, 'system.info', {}, { 'x-desk-csrf': session.csrf })).status).toBe(403);
    expect((await invoke(clockHost, 'system.info', {}, { cookie: session.cookie })).status).toBe(403);
    expect((await invoke(clockHost, 'system.info', {}, { cookie: session.cookie, 'x-desk-csrf': 'x'.repeat(43) })).status).toBe(403);
    // Another host's session is no session here.
    expect((await invoke(host, 'system.info', {}, { cookie: session.cookie, 'x-desk-csrf': session.csrf })).status).toBe(403);
  });

  it('mints another one-time launch address only for its session or its terminal; each works once, in one browser', async () => {
    const mint = (headers: Record<string, string>) => fetch(`${clockHost.url}/api/launch-links`, { method: 'POST', headers });
    // No session, no token, a foreign origin: no address.
    expect((await mint({})).status).toBe(403);
    expect((await mint({ cookie: session.cookie })).status).toBe(403);
    expect((await mint({ cookie: session.cookie, 'x-desk-csrf': session.csrf, origin: 'http://evil.example' })).status).toBe(403);
    const minted = await mint({ cookie: session.cookie, 'x-desk-csrf': session.csrf });
    const { url } = z.object({ ok: z.literal(true), value: z.object({ url: z.string() }) }).parse(await minted.json()).value;
    // The terminal's (Enter) and the page's addresses open a session of their own, once each.
    for (const address of [url, clockHost.newLaunchUrl()]) {
      expect(new URL(address).origin).toBe(clockHost.url);
      const first = await fetch(address);
      expect(first.status).toBe(200);
      expect(first.headers.get('set-cookie')).toMatch(/^desk_session=/);
      const again = await fetch(address);
      expect(again.status).toBe(403);
      // The page without a session says exactly how to get in.
      expect(await again.text()).toMatch(
        /press Enter in the terminal where the desk runs .* choose Settings, then &ldquo;New launch address&rdquo;/,
      );
    }
    // Unspent addresses are few: a fifth newer one drops the oldest.
    const open = Array.from({ length: 5 }, () => clockHost.newLaunchUrl());
    expect((await fetch(open[0]!)).status).toBe(403);
    expect((await fetch(open[4]!)).status).toBe(200);
  });

  it('refuses a foreign Origin and cross-site fetches even with valid credentials', async () => {
    const good = { cookie: session.cookie, 'x-desk-csrf': session.csrf };
    expect((await invoke(clockHost, 'system.info', {}, { ...good, origin: 'http://evil.example' })).status).toBe(403);
    expect((await invoke(clockHost, 'system.info', {}, { ...good, origin: `http://127.0.0.1:${clockHost.port + 1}` })).status).toBe(403);
    expect((await invoke(clockHost, 'system.info', {}, { ...good, 'sec-fetch-site': 'cross-site' })).status).toBe(403);
  });

  it('serves a file the desk produced once, by handle, with its own name and type; nothing else', async () => {
    const good = { cookie: session.cookie, 'x-desk-csrf': session.csrf };
    const made = (await (await invoke(clockHost, 'export.csv', { list: 'projects', search: {} }, good)).json()) as {
      ok: true;
      value: { handle: string; filename: string; size: number };
    };
    expect(made.ok).toBe(true);
    expect(Object.keys(made.value).sort()).toEqual(['filename', 'handle', 'kind', 'size']);
    const url = `${clockHost.url}/api/files/${made.value.handle}`;
    expect((await fetch(url, { headers: { cookie: session.cookie } })).status).toBe(403); // no CSRF token
    const file = await fetch(url, { headers: good });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('text/csv');
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(file.headers.get('content-disposition')).toMatch(/^attachment; filename="projects-public-\d{4}-\d{2}-\d{2}\.csv"/);
    expect(decodeURIComponent(file.headers.get('x-desk-filename')!)).toBe(made.value.filename);
    const bytes = new Uint8Array(await file.arrayBuffer());
    expect(bytes.byteLength).toBe(made.value.size);
    expect(new TextDecoder().decode(bytes)).toMatch(/^Number,Name,Status/);
    // Served once; unknown and malformed handles are 404.
    expect((await fetch(url, { headers: good })).status).toBe(404);
    expect((await fetch(`${clockHost.url}/api/files/${'A'.repeat(24)}`, { headers: good })).status).toBe(404);
    expect((await fetch(`${clockHost.url}/api/files/..%2F..%2Fetc%2Fpasswd`, { headers: good })).status).toBe(404);
  });

  it('takes an uploaded key file and answers only its handle; refuses what is not a key or too large', async () => {
    const good = { cookie: session.cookie, 'x-desk-csrf': session.csrf };
    const pem = rsaKeyPair(0).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const upload = (body: string, headers: Record<string, string> = good) =>
      fetch(`${clockHost.url}/api/keys/import`, {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream', 'x-desk-filename': encodeURIComponent('my key.pem'), ...headers },
        body,
      });
    expect((await upload(pem, { cookie: session.cookie })).status).toBe(403);
    const picked = await upload(pem);
    const text = await picked.text();
    expect(JSON.parse(text)).toEqual({ ok: true, value: { handle: expect.stringMatching(/^[A-Za-z0-9_-]{24}$/), fileName: 'my key.pem' } });
    expect(text).not.toContain('PRIVATE KEY');
    expect(await (await upload('hello')).json()).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await (await upload('x'.repeat(50_000))).json()).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: 'my key.pem is too large to be a key file (at most 20 KB)' },
    });
    // Past the upload cap (a demo-credentials.json's room): 413 on the announced length alone. A raw
    // request: fetch's pooled socket, closed by that answer mid-body, would fail the next test's call.
    const oversized = { ...good, 'content-type': 'application/octet-stream', 'content-length': '2000001', connection: 'close' };
    expect((await raw(`${clockHost.url}/api/keys/import`, oversized, 'POST')).status).toBe(413);
    // a malformed escape in the name is bad input (JSON, 400), not a plain-text 500
    const badName = await upload(pem, { ...good, 'x-desk-filename': '%E0%A4%A' });
    expect(badName.status).toBe(400);
    expect(await badName.json()).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: expect.stringMatching(/x-desk-filename/) },
    });
  });

  it('refuses a wrong Host header (DNS rebinding)', async () => {
    const headers = { cookie: session.cookie, 'x-desk-csrf': session.csrf, 'content-type': 'application/json' };
    const rebound = await raw(
      `${clockHost.url}/api/invoke/system.info`,
      { ...headers, host: `attacker.example:${clockHost.port}` },
      'POST',
    );
    expect(rebound.status).toBe(421);
    const page = await raw(`${clockHost.url}/`, { host: 'attacker.example' });
    expect(page.status).toBe(421);
    const local = await raw(`${clockHost.url}/api/invoke/system.info`, { ...headers, host: `localhost:${clockHost.port}` }, 'POST');
    expect(local.status).toBe(200);
  });

  it('streams desk events: a sync started through the API reports over SSE', async () => {
    const controller = new AbortController();
    const stream = await fetch(`${clockHost.url}/api/events`, {
      headers: { cookie: session.cookie, 'x-desk-csrf': session.csrf },
      signal: controller.signal,
    });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/text\/event-stream/);
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    expect((await reader.read()).value).toContain(': connected');
    const started = await invoke(
      clockHost,
      'sync.run',
      { resources: ['organizations'] },
      { cookie: session.cookie, 'x-desk-csrf': session.csrf },
    );
    expect(await started.json()).toMatchObject({ ok: true, value: { started: true } });
    let text = '';
    while (!text.includes('"type":"sync.finished"')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
    controller.abort();
    const finished = text
      .split('\n\n')
      .map((block) => /^data: (.*)$/m.exec(block)?.[1])
      .filter((d): d is string => d !== undefined)
      .map((d) => JSON.parse(d) as { type: string })
      .find((e) => e.type === 'sync.finished');
    expect(finished).toBeDefined();
  });

  it('refuses the event stream without the CSRF header', async () => {
    expect((await fetch(`${clockHost.url}/api/events`, { headers: { cookie: session.cookie } })).status).toBe(403);
  });

  it('moves the test clock only where --test-clock was given', async () => {
    const good = { cookie: session.cookie, 'x-desk-csrf': session.csrf, 'content-type': 'application/json' };
    const before = testClock.offset;
    const moved = await fetch(`${clockHost.url}/api/test/clock/advance`, {
      method: 'POST',
      headers: good,
      body: JSON.stringify({ ms: 60_000 }),
    });
    expect(await moved.json()).toMatchObject({ ok: true, offsetMs: before + 60_000 });
    const other = hostSession;
    const refused = await fetch(`${host.url}/api/test/clock/advance`, {
      method: 'POST',
      headers: { ...good, cookie: other.cookie, 'x-desk-csrf': other.csrf },
      body: '{"ms":1}',
    });
    expect(refused.status).toBe(404);
    expect(testClock.offset).toBe(before + 60_000);
  });
});
