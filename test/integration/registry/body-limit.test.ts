// Request bodies are capped (issue 11, item 1): over the cap is 413 in the error shape, answered
// before the rest of the body is read; a client that goes away mid-upload is no internal error.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strict } from '@shared/registry/resources';
import { DEFAULT_MAX_BODY_BYTES } from '@registry/http/body';
import { createTestApp, startTestRegistry, type TestApp, type TestRegistry } from '@test/support/registry';

let t: TestRegistry;
let small: TestRegistry;
let app: TestApp;
const logged: string[] = [];
const logWaiters: { match: RegExp; resolve: (line: string) => void }[] = [];

function log(line: string) {
  logged.push(line);
  for (const w of logWaiters.splice(0)) {
    if (w.match.test(line)) w.resolve(line);
    else logWaiters.push(w);
  }
}
const nextLog = (match: RegExp) => new Promise<string>((resolve) => logWaiters.push({ match, resolve }));

beforeAll(async () => {
  t = await startTestRegistry({ log });
  app = createTestApp(t.registry);
  small = await startTestRegistry({ maxBodyBytes: 64, log });
});
afterAll(async () => {
  await t.close();
  await small.close();
});

/** Sends raw bytes and collects everything the server answers until it closes the connection. */
function rawExchange(url: string, write: (socket: Socket) => void): Promise<{ text: string; closed: boolean }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => write(socket));
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve({ text, closed: true }));
  });
}

function parseRaw(text: string) {
  const [head, ...rest] = text.split('\r\n\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head!)?.[1]);
  const bodyText = rest.join('\r\n\r\n');
  const chunked = /transfer-encoding: chunked/i.test(head!);
  const json = chunked ? bodyText.replace(/^[0-9a-f]+\r\n/i, '').replace(/\r\n0\r\n\r\n$/, '') : bodyText;
  return { status, head: head!, body: JSON.parse(json) as unknown };
}

describe('request body cap', () => {
  it('answers a declared 100 MB body with 413 in the error shape before reading it, and closes', async () => {
    const jwt = await app.jwt();
    const { text } = await rawExchange(t.url, (s) => {
      s.write(
        `POST /app/accessTokens HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${jwt}\r\nContent-Type: application/json\r\nContent-Length: ${100 * 1024 * 1024}\r\n\r\n{"a":`,
      );
      // nothing more is sent: the answer must come without the body
    });
    const answer = parseRaw(text);
    expect(answer.status).toBe(413);
    const body = strict.errorBody.parse(answer.body);
    expect(body).toMatchObject({ statusCode: 413, error: 'Payload Too Large' });
    expect(body.message).toContain(String(DEFAULT_MAX_BODY_BYTES));
  });

  it('refuses an oversized declared body even on an endpoint that takes none, without authenticating', async () => {
    const { text } = await rawExchange(t.url, (s) =>
      s.write(`GET /projects HTTP/1.1\r\nHost: x\r\nContent-Length: ${2 * 1024 * 1024}\r\n\r\n`),
    );
    expect(parseRaw(text).status).toBe(413);
  });

  it('refuses a chunked body once it passes the cap (--max-body)', async () => {
    const jwt = await createTestApp(small.registry).jwt();
    const chunk = JSON.stringify({ padding: 'x'.repeat(100) });
    const { text } = await rawExchange(small.url, (s) => {
      s.write(
        `POST /app/accessTokens HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${jwt}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
      );
      s.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
      // the terminating chunk never comes: the refusal must not wait for it
    });
    const answer = parseRaw(text);
    expect(answer.status).toBe(413);
    expect(strict.errorBody.parse(answer.body).message).toContain('64 bytes');
  });

  it('still accepts a body under the cap', async () => {
    const res = await small.call('/app/accessTokens', { method: 'POST', token: await createTestApp(small.registry).jwt(), body: '{}' });
    expect(res.status).toBe(200);
  });

  it('logs a client that goes away mid-upload in one line, not as an internal error', async () => {
    const jwt = await app.jwt();
    const seen = nextLog(/mid-upload/);
    await rawExchange(t.url, (s) => {
      s.write(
        `POST /app/accessTokens HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${jwt}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":`,
      );
      // the server has authenticated and is reading the body when the client goes away
      setImmediate(() => s.destroy());
    });
    expect(await seen).toMatch(/client went away mid-upload in POST \/app\/accessTokens$/);
    expect(logged.filter((l) => /internal error/.test(l))).toEqual([]);
  });
});
