// A TCP proxy on loopback that counts the exchanges of a request-and-answer protocol (PostgreSQL's):
// the times a client sent after the server had sent on its connection, or first, however the bytes
// were chunked. It runs in a thread of its own, so it keeps forwarding while the test's thread is
// held (a libpq connect or statement blocks it), which a proxy on that thread could not.
import { Worker } from 'node:worker_threads';

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
  upstream.on('data', (chunk) => {
    clientSpokeLast = false;
    client.write(chunk);
  });
  for (const socket of [client, upstream]) {
    socket.setNoDelay(true);
    sockets.add(socket);
    const both = () => { client.destroy(); upstream.destroy(); sockets.delete(socket); };
    socket.on('error', both);
    socket.on('close', both);
  }
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
parentPort.on('message', () => {
  for (const socket of sockets) socket.destroy();
  server.close(() => parentPort.close());
});
`;

export async function startCountingProxy(target: { host: string; port: number }): Promise<CountingProxy> {
  const counts = new SharedArrayBuffer(4);
  const worker = new Worker(PROXY, { eval: true, workerData: { ...target, counts } });
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
