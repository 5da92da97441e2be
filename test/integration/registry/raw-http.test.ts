// What Node's HTTP layer refuses before any route runs (issue 11, item 2) is answered in the JSON
// error shape too, and a repeated version header is refused: raw bytes over a real loopback socket.
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strict } from '@shared/registry/resources';
import { API_VERSION } from '@shared/registry/vocabulary';
import { keptAliveSocket } from '@test/support/kept-alive-socket';
import { createTestApp, startTestRegistry, type TestApp, type TestRegistry } from '@test/support/registry';

let t: TestRegistry;
beforeAll(async () => {
  t = await startTestRegistry();
});
afterAll(() => t.close());

/**
 * Writes `request` and reads the answer until the server closes the connection (or a full answer
 * arrived); `from` is the local address to connect from (another client on loopback: 127.0.0.2).
 */
function exchange(
  request: string,
  url = t.url,
  { from, onConnect }: { from?: string; onConnect?: (socket: Socket) => void } = {},
): Promise<{ status: number; head: string; body: unknown }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ port: Number(port), host: hostname, ...(from ? { localAddress: from } : {}) }, () => {
      socket.write(request);
      onConnect?.(socket);
    });
    let text = '';
    const done = () => {
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
      const raw = rest.join('\r\n\r\n');
      const json = /transfer-encoding: chunked/i.test(head) ? raw.replace(/^[0-9a-f]+\r\n/i, '').replace(/\r\n0\r\n\r\n$/, '') : raw;
      resolve({ status, head, body: json ? (JSON.parse(json) as unknown) : undefined });
    };
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
      const length = /content-length: (\d+)/i.exec(text)?.[1];
      const bodyStart = text.indexOf('\r\n\r\n');
      if (length !== undefined && bodyStart >= 0 && Buffer.byteLength(text.slice(bodyStart + 4), 'latin1') >= Number(length)) {
        socket.destroy();
        done();
      }
    });
    socket.on('error', reject);
    socket.on('close', done);
  });
}

function expectShape(answer: { status: number; body: unknown }, status: number) {
  expect(answer.status).toBe(status);
  const body = strict.errorBody.parse(answer.body);
  expect(body.statusCode).toBe(status);
  return body;
}

describe('errors outside the routes, in the error shape', () => {
  it('431 for oversized headers', async () => {
    const answer = await exchange(`GET /openapi.json HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(expectShape(answer, 431).error).toBe('Request Header Fields Too Large');
    expect(answer.head).toMatch(/connection: close/i);
  });

  it('400 for a malformed request line', async () => {
    expectShape(await exchange('THIS IS NOT HTTP\r\n\r\n'), 400);
  });

  it('400 for Transfer-Encoding together with Content-Length', async () => {
    const answer = await exchange(
      'POST /app/accessTokens HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    );
    expect(expectShape(answer, 400).message).toMatch(/Transfer-Encoding with Content-Length/);
  });

  it('400 for a version header given twice, even with the same value; once is fine', async () => {
    const twice = await exchange(
      `GET /openapi.json HTTP/1.1\r\nHost: x\r\nX-Reg-Api-Version: ${API_VERSION}\r\nx-reg-api-version: ${API_VERSION}\r\nConnection: close\r\n\r\n`,
    );
    expect(expectShape(twice, 400).message).toMatch(/more than once/);
    const once = await exchange(`GET /openapi.json HTTP/1.1\r\nHost: x\r\nX-Reg-Api-Version: ${API_VERSION}\r\nConnection: close\r\n\r\n`);
    expect(once.status).toBe(200);
  });
});

describe('requests no route can answer', () => {
  it('400 in the error shape for an HTTP/1.1 request without Host; HTTP/1.0 needs none', async () => {
    const answer = await exchange('GET / HTTP/1.1\r\n\r\n');
    expect(expectShape(answer, 400).message).toMatch(/needs a Host header/);
    expect(answer.head).toMatch(/connection: close/i);
    expect((await exchange('GET /openapi.json HTTP/1.0\r\n\r\n')).status).toBe(200);
  });

  it('keeps reading a kept-alive connection after answering a request before its body was all read', async () => {
    const { hostname, port } = new URL(t.url);
    const socket = connect({ port: Number(port), host: hostname });
    let text = '';
    const answers = () => text.match(/HTTP\/1\.1 \d{3}(?= )/g) ?? [];
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    const received = (count: number) =>
      new Promise<void>((resolve) => {
        const check = () => (answers().length >= count ? resolve() : undefined);
        socket.on('data', check);
        void closed.then(resolve);
        check();
      });
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    const body = JSON.stringify({ creditId: 'c'.repeat(60), amount: 1 }).padEnd(100);
    // half the body: the token is refused before the body is read
    socket.write(
      `POST /organizations/${'0'.repeat(8)}-0000-4000-8000-000000000000/warehouse/inventory/reservations HTTP/1.1\r\nHost: x\r\n` +
        `Authorization: Bearer not-a-token\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n${body.slice(0, 50)}`,
    );
    await received(1);
    expect(answers()).toEqual(['HTTP/1.1 401']);
    // a client slow with the rest of its body (well inside the 10 s a body may pause) keeps the connection
    socket.setTimeout(1500);
    await Promise.race([once(socket, 'timeout'), closed]);
    expect(socket.destroyed).toBe(false);
    // the rest of that body, then the next request on the same connection: answered, not left unread
    socket.write(`${body.slice(50)}GET /openapi.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    await received(2);
    socket.destroy();
    expect(answers()).toEqual(['HTTP/1.1 401', 'HTTP/1.1 200']);
  });

  it('405 in the error shape for CONNECT, with Allow and Connection: close', async () => {
    const answer = await exchange('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expect(expectShape(answer, 405).message).toMatch(/not a proxy/);
    expect(answer.head).toMatch(/allow: GET, POST, PATCH, DELETE, OPTIONS/i);
    expect(answer.head).toMatch(/connection: close/i);
  });
});

describe('slow sockets (a few hundred here; the attack used 20,000)', () => {
  // Tight limits so the deadlines pass in about a second: Node's own timers, which no injected clock
  // moves, so the test waits for the server's answers (events), never for a set time.
  const limits = { perAddress: 40, headersMs: 1_500, requestMs: 5_000, bodyIdleMs: 300, keepAliveMs: 1_000 };
  let slow: TestRegistry;
  let app: TestApp;
  beforeAll(async () => {
    slow = await startTestRegistry({ connectionLimits: limits });
    app = createTestApp(slow.registry);
  });
  afterAll(() => slow.close());

  const partial = 'GET /healthz HTTP/1.1\r\nHost: x\r\n';
  const whole = 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n';

  /** `count` connections that send half their headers and stall; resolves once all are connected. */
  async function stall(url: string, count: number) {
    let connected = 0;
    let allConnected!: () => void;
    const held = new Promise<void>((resolve) => (allConnected = resolve));
    const sockets: Socket[] = [];
    const answers = Array.from({ length: count }, () =>
      exchange(partial, url, { onConnect: (socket) => sockets.push(socket) && ++connected === count && allConnected() }),
    );
    await held;
    return { answers, sockets };
  }

  it('caps connections per address (429 at once) while the stalled ones hold, and serves other addresses meanwhile', async () => {
    // The header deadline far away, so the 40 hold their slots however long the 260 take on a busy
    // machine (with 1.5 s, a loaded run saw slots freed by 408s part way and 220 refusals of 260).
    const capped = await startTestRegistry({ connectionLimits: { ...limits, headersMs: 60_000, requestMs: 120_000 } });
    try {
      // connected first, so the server counts them first
      const holding = await stall(capped.url, 40);
      const refused = await Promise.all(Array.from({ length: 260 }, () => exchange(partial, capped.url)));
      expect(refused.filter((a) => a.status === 429)).toHaveLength(260);
      expect(expectShape(refused[0]!, 429).message).toMatch(/at most 40 at once/);
      expect(refused[0]!.head).toMatch(/retry-after: 1/i);
      expect((await exchange(whole, capped.url, { from: '127.0.0.2' })).status).toBe(200);
      // the 40 were never answered: they held their slots to the end
      for (const socket of holding.sockets) socket.destroy();
      expect((await Promise.all(holding.answers)).filter((a) => Number.isNaN(a.status))).toHaveLength(40);
    } finally {
      await capped.close();
    }
  });

  it('closes header-stalled connections with 408, which frees their slots', async () => {
    const { answers } = await stall(slow.url, 40);
    const timedOut = await Promise.all(answers);
    expect(timedOut.filter((a) => a.status === 408)).toHaveLength(40);
    expectShape(timedOut[0]!, 408);
    expect((await exchange(whole, slow.url)).status).toBe(200);
  });

  it('answers 408 in the error shape when a body stops arriving', async () => {
    const jwt = await app.jwt();
    const head = `POST /app/accessTokens HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${jwt}\r\nContent-Length: 10\r\n\r\n`;
    const answer = await exchange(`${head}{"`, slow.url);
    expect(expectShape(answer, 408).message).toMatch(/stopped arriving: nothing came for 0.3 s/);
    expect(answer.head).toMatch(/connection: close/i);
    expect(answer.head).not.toMatch(/keep-alive:/i);
  });

  it('keeps an idle connection open past its advertised time by the longest database hold, then closes it', async () => {
    const client = await keptAliveSocket(slow.url);
    const answer = await client.ask('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(answer.head).toMatch(/^connection: keep-alive$/im);
    expect(answer.head).toMatch(/^keep-alive: timeout=1$/im);
    // a client that never sends again is closed all the same, but not before that margin
    expect((await client.closed) - answer.at).toBeGreaterThan(limits.keepAliveMs + slow.registry.db.longestHoldMs);
  }, 30_000);

  it('answers 408 when the next request on a kept-alive connection stalls in its headers', async () => {
    const client = await keptAliveSocket(slow.url);
    expect((await client.ask('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n')).status).toBe(200);
    const stalled = await client.ask(partial);
    expect(stalled.status).toBe(408);
    expect(stalled.head).toMatch(/connection: close/i);
    await client.closed;
  });
});
