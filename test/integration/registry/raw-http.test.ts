// What Node's HTTP layer refuses before any route runs (issue 11, item 2) is answered in the JSON
// error shape too, and a repeated version header is refused: raw bytes over a real loopback socket.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strict } from '../../../shared/registry/resources';
import { API_VERSION } from '../../../shared/registry/vocabulary';
import { startTestRegistry, type TestRegistry } from '../../support/registry';

let t: TestRegistry;
beforeAll(async () => {
  t = await startTestRegistry();
});
afterAll(() => t.close());

/** Writes `request` and reads the answer until the server closes the connection (or a full answer arrived). */
function exchange(request: string): Promise<{ status: number; head: string; body: unknown }> {
  const { hostname, port } = new URL(t.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(request));
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
