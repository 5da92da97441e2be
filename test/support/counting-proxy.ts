// A TCP proxy on loopback that counts the exchanges of a request-and-answer protocol (PostgreSQL's):
// the times a client sent after the server had sent on its connection, or first, however the bytes
// were chunked. It runs in a thread of its own, so it keeps forwarding while the test's thread is
// held (a libpq connect or statement blocks it), which a proxy on that thread could not.
//
// Asked to, it also holds what the server sends after each error message (ErrorResponse) for a
// while, as a slow network may: the error reaches the client, the rest of that answer comes later.
// (It reads the server's messages from the first byte: connect with sslmode=disable and
// gssencmode=disable, whose one-byte refusals are not messages.)
import { Worker } from 'node:worker_threads';

export interface CountingProxyOptions {
  /** Hold the server's bytes that follow each error message this long (ms). */
  holdAfterErrorMs?: number;
}

export interface CountingProxy {
  host: string;
  port: number;
  /** Exchanges on every connection so far. */
  exchanges(): number;
  close(): Promise<void>;
}

const PROXY = `
const net = require('node:net');
const { parentPort, workerData } = require('node:worker_threads');
const counts = new Int32Array(workerData.counts);
const sockets = new Set();
const server = net.createServer((client) => {
  const upstream = net.connect(workerData.port, workerData.host);
  let clientSpokeLast = false;
  client.on('data', (chunk) => {
    if (!clientSpokeLast) Atomics.add(counts, 0, 1);
    clientSpokeLast = true;
    upstream.write(chunk);
  });
  const toClient = workerData.holdAfterErrorMs ? splitAfterErrors(client, workerData.holdAfterErrorMs) : (chunk) => client.write(chunk);
  upstream.on('data', (chunk) => {
    clientSpokeLast = false;
    toClient(chunk);
  });
  for (const socket of [client, upstream]) {
    socket.setNoDelay(true);
    sockets.add(socket);
    const both = () => { client.destroy(); upstream.destroy(); sockets.delete(socket); };
    socket.on('error', both);
    socket.on('close', both);
  }
});
/** Writes the server's messages to the client, what follows each error message holdMs after it. */
function splitAfterErrors(client, holdMs) {
  let buffered = Buffer.alloc(0);
  let written = Promise.resolve();
  const later = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const write = (piece, holdAfter) => {
    written = written.then(() => {
      if (!client.destroyed) client.write(piece);
      return holdAfter ? later(holdMs) : undefined;
    });
  };
  return (chunk) => {
    buffered = Buffer.concat([buffered, chunk]);
    let end = 0;
    let from = 0;
    // each message: its type (one byte), then its length (four bytes, counting themselves), then the rest
    while (buffered.length - end >= 5 && buffered.length - end >= 1 + buffered.readInt32BE(end + 1)) {
      const type = buffered[end];
      end += 1 + buffered.readInt32BE(end + 1);
      if (type === 0x45) {
        write(buffered.subarray(from, end), true);
        from = end;
      }
    }
    if (end > from) write(buffered.subarray(from, end), false);
    buffered = buffered.subarray(end);
  };
}
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
parentPort.on('message', () => {
  for (const socket of sockets) socket.destroy();
  server.close(() => parentPort.close());
});
`;

export async function startCountingProxy(
  target: { host: string; port: number },
  options: CountingProxyOptions = {},
): Promise<CountingProxy> {
  const counts = new SharedArrayBuffer(4);
  const worker = new Worker(PROXY, { eval: true, workerData: { ...target, ...options, counts } });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  const view = new Int32Array(counts);
  return {
    host: '127.0.0.1',
    port,
    exchanges: () => Atomics.load(view, 0),
    close: async () => {
      worker.postMessage('close');
      await new Promise((resolve) => worker.once('exit', resolve));
    },
  };
}
