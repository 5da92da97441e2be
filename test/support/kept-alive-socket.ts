// One raw kept-alive HTTP/1.1 connection (node:net) for the tests of what a server does between the
// requests it carries: each request written on the same socket, each answer read whole (it must say
// its Content-Length), and the server closing the connection seen as such, never as an answer.
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  status: number;
  head: string;
  body: string;
  /** performance.now() when the whole answer had arrived. */
  at: number;
}

export interface KeptAliveSocket {
  socket: Socket;
  /** Writes `request` and resolves with the answer; rejects if the server closes the connection first. */
  ask(request: string): Promise<RawAnswer>;
  /** Resolves with performance.now() once the server has closed the connection. */
  closed: Promise<number>;
}

export async function keptAliveSocket(url: string): Promise<KeptAliveSocket> {
  const { hostname, port } = new URL(url);
  const socket = connect({ port: Number(port), host: hostname });
  await once(socket, 'connect');
  socket.setEncoding('latin1');
  let text = '';
  let waiting: { resolve: (answer: RawAnswer) => void; reject: (error: Error) => void } | undefined;
  const take = () => {
    const end = text.indexOf('\r\n\r\n');
    const length = Number(/content-length: (\d+)/i.exec(text.slice(0, end))?.[1]);
    if (!waiting || end < 0 || Number.isNaN(length) || text.length < end + 4 + length) return;
    const head = text.slice(0, end);
    const answer = { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), head, body: text.slice(end + 4, end + 4 + length) };
    text = text.slice(end + 4 + length);
    const { resolve } = waiting;
    waiting = undefined;
    resolve({ ...answer, at: performance.now() });
  };
  socket.on('data', (chunk: string) => ((text += chunk), take()));
  const closed = new Promise<number>((resolve) =>
    socket.once('close', () => {
      waiting?.reject(new Error(`the server closed the connection before answering (read: ${JSON.stringify(text)})`));
      resolve(performance.now());
    }),
  );
  // a reset is a close without an answer: reported by ask(), not thrown
  socket.on('error', () => undefined);
  return {
    socket,
    ask: (request) =>
      new Promise<RawAnswer>((resolve, reject) => {
        if (socket.destroyed) return reject(new Error('the server had closed the connection'));
        waiting = { resolve, reject };
        socket.write(request);
      }),
    closed,
  };
}

/** A GET with the bearer `token` that keeps its connection. */
export function keptAliveGet(path: string, token: string): string {
  return `GET ${path} HTTP/1.1\r\nHost: registry\r\nAuthorization: Bearer ${token}\r\n\r\n`;
}

const FUTEX = 202;
/**
 * Resolves once the process `pid`'s main thread is found in a futex wait (x86-64 Linux,
 * /proc/<pid>/syscall) two looks in a row: the PostgreSQL engine's synchronous wait for an answer
 * (postgres-timed.ts naps on Atomics.wait), where an idle Node process waits in epoll instead.
 */
export async function heldInFutex(pid: number): Promise<void> {
  let looks = 0;
  while (looks < 2) {
    const syscall = Number(readFileSync(`/proc/${pid}/syscall`, 'latin1').split(' ')[0]);
    looks = syscall === FUTEX ? looks + 1 : 0;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
