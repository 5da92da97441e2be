// When a request made through fetch has left (electron/core/desk/client/request-sent.ts): told as
// undici writes its headers to the connection, before any answer, only for its own URL, and not
// after the caller stopped waiting. A real server on loopback holds its answers until told to.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { whenSent } from '@desk/client/request-sent';

const held: ServerResponse[] = [];
const heard: string[] = [];
const server = createServer((request: IncomingMessage, response: ServerResponse) => {
  heard.push(request.url ?? '');
  held.push(response);
});
let base = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const answerAll = () => held.splice(0).forEach((response) => response.end('{}'));

describe('a request made through fetch, told when it has left', () => {
  it('is told before any answer, for its own URL only, and not once the caller stopped waiting', async () => {
    const url = `${base}/sync/v1/changes?cursor=abc&limit=10`;
    const told: string[] = [];
    const left = new Promise<void>((resolve) => whenSent(url, () => (told.push('own'), resolve())));
    const stop = whenSent(`${base}/elsewhere`, () => told.push('other'));
    const stopped = whenSent(url, () => told.push('stopped'));
    stopped();
    const answer = fetch(url);
    await left;
    // The server has the request, and has not answered it.
    await expect.poll(() => heard).toContain('/sync/v1/changes?cursor=abc&limit=10');
    expect(held).toHaveLength(1);
    expect(told).toEqual(['own']);
    answerAll();
    expect((await answer).status).toBe(200);
    stop();
    // Another request to the same URL tells no one now.
    const again = fetch(url);
    await expect.poll(() => held.length).toBe(1);
    answerAll();
    await (await again).text();
    expect(told).toEqual(['own']);
  });
});
