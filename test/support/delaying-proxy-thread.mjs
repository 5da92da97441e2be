// The delaying proxy's link (started by delaying-proxy.ts on a thread of its own, so its timers and
// reads never wait behind the work of the thread that started it, a registry's server in the same
// process, as a real link's never do): a TCP proxy that holds every chunk for half the round trip
// each way and (optionally) caps the link at a bit rate shared by all connections, as one access
// line is. Bytes and connections are counted in shared memory; the requests it hears, its own lag
// (how much later than due it passed each chunk on) and its closing go back as messages, their
// times on the starting thread's clock (see delaying-proxy.ts for the messages' types).
// Plain JavaScript: Node starts it as it is, where a TypeScript thread took tsx's loader 2-4 s to
// start on a loaded machine, for each proxy.
import net from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';

const { options, counts: shared, timeOrigin, hearRequests } = workerData;
/** Indexes into the shared counts, as delaying-proxy.ts's COUNT. */
const BYTES_DOWN = 0;
const BYTES_UP = 1;
const CONNECTIONS = 2;
const counts = new BigInt64Array(shared);
// From this thread's performance.now() to the starting thread's.
const toStarter = performance.timeOrigin - timeOrigin;
const now = () => performance.now() + toStarter;

/** Every chunk passed on: { request, up, atMs, lateMs } (request: its connection's last request line). */
const deliveries = [];
// Sampled every 10 ms: at 1 ms its timer woke this otherwise idle thread a thousand times a second,
// CPU the desk and the registry share on a small machine. A sample counts the interval too.
const SAMPLED_EVERY_MS = 10;
const loopDelay = monitorEventLoopDelay({ resolution: SAMPLED_EVERY_MS });
loopDelay.enable();

/** One direction of the link: when it is next free, so chunks queue behind each other at its rate. */
const lanes = { up: { freeAt: 0, up: true }, down: { freeAt: 0, up: false } };

function forward(from, to, lane, exchange) {
  // Chunks of one connection keep their order: each is due no earlier than the one before.
  let lastDue = 0;
  let ended = false;
  let pending = 0;
  from.on('data', (chunk) => {
    Atomics.add(counts, lane.up ? BYTES_UP : BYTES_DOWN, BigInt(chunk.length));
    const at = now();
    const sending = options.bitsPerSecond ? (chunk.length * 8 * 1000) / options.bitsPerSecond : 0;
    lane.freeAt = Math.max(lane.freeAt, at) + sending;
    const due = Math.max(lastDue, lane.freeAt + options.rttMs / 2);
    lastDue = due;
    pending++;
    const deliver = () => {
      pending--;
      const atMs = now();
      deliveries.push({ request: exchange.request, up: lane.up, atMs, lateMs: Math.max(0, atMs - due) });
      if (!to.destroyed) to.write(chunk);
      if (ended && pending === 0) to.end();
    };
    if (due - at <= 0.5) deliver();
    // The wire's delay itself (what this proxy is for), not a test waiting on time.
    else setTimeout(() => deliver(), due - at);
  });
  from.on('end', () => {
    ended = true;
    if (pending === 0) to.end();
  });
}

const METHOD = /^(GET|POST|PUT|PATCH|DELETE|HEAD) \S+ HTTP\/1\.[01]$/;

/**
 * The request line a chunk from a client starts with, when it does. A request is taken to start a
 * chunk: true of the desk's requests, which are small and sent whole.
 */
function requestLine(chunk) {
  const end = chunk.indexOf(13);
  if (end <= 0 || end > 4096) return null;
  const line = chunk.toString('latin1', 0, end);
  return METHOD.test(line) ? line : null;
}

const sockets = new Set();
const server = net.createServer((client) => {
  Atomics.add(counts, CONNECTIONS, 1n);
  client.setNoDelay(true);
  const upstream = net.connect(options.target.port, options.target.host);
  upstream.setNoDelay(true);
  for (const socket of [client, upstream]) {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    // Either side going away takes the other with it (after what is in flight, for an end).
    socket.on('error', () => {
      client.destroy();
      upstream.destroy();
    });
  }
  client.on('close', () => upstream.destroy());
  const exchange = { request: '' };
  // Heard before the chunk is forwarded (this listener comes first): its answer's chunks are its.
  client.on('data', (chunk) => {
    const line = requestLine(chunk);
    if (line === null) return;
    exchange.request = line;
    if (hearRequests) parentPort.postMessage({ type: 'request', line, atMs: now() });
  });
  forward(client, upstream, lanes.up, exchange);
  forward(upstream, client, lanes.down, exchange);
});

parentPort.on('message', (message) => {
  if (message.type === 'lag') {
    const ms = (ns) => Math.max(0, ns / 1e6 - SAMPLED_EVERY_MS);
    const loopDelayMs = { p50: ms(loopDelay.percentile(50)), p99: ms(loopDelay.percentile(99)), max: ms(loopDelay.max) };
    parentPort.postMessage({ type: 'lag', lag: { chunks: deliveries, loopDelayMs } });
    return;
  }
  loopDelay.disable();
  for (const socket of sockets) socket.destroy();
  server.close(() => {
    parentPort.postMessage({ type: 'closed' });
    parentPort.close();
  });
});
server.listen(0, options.host, () => parentPort.postMessage({ type: 'listening', port: server.address().port }));
