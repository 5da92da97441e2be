// A TCP proxy on loopback that makes a real network of it: every chunk is held for half the round
// trip each way, and (optionally) the link is capped at a bit rate shared by all connections, as
// one access line is. It counts the bytes each way, so a test or bench can report bytes on the wire.
// Used by the desk's network tests and by `npm run bench -- network`.
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';

export interface DelayingProxyOptions {
  /** Where the proxy forwards to. */
  target: { host: string; port: number };
  /** Round-trip time added (ms): half on the way there, half on the way back. */
  rttMs: number;
  /** The link's capacity each way in bits per second (unlimited when absent). */
  bitsPerSecond?: number;
  /** Address the proxy listens on (127.0.0.1 by default). */
  host?: string;
  /**
   * Hears each request's first line ("GET /path HTTP/1.1") as the proxy receives it from the
   * client, before its delay (the network bench times the sync's phases by them). A request is
   * taken to start a chunk: true of the desk's requests, which are small and sent whole.
   */
  onRequest?: (line: string) => void;
}

/**
 * One chunk the proxy passed on: how much later than due it left (the proxy's own lag, which a real
 * link never has), which way, and the request last sent on its connection (an answer's, for one
 * coming down: the desk sends one request at a time on a connection).
 */
export interface ChunkDelivery {
  request: string;
  up: boolean;
  /** When it left (performance.now() of the thread that started the proxy). */
  atMs: number;
  lateMs: number;
}

export interface DelayingProxy {
  url: string;
  host: string;
  port: number;
  /** Bytes from the server to the clients, and from the clients to the server. */
  bytesDown: number;
  bytesUp: number;
  /** Connections the clients opened. */
  connections: number;
  /** The proxy's own lag so far: what a faithful link would not add. */
  lag(): Promise<LinkLag>;
  close(): Promise<void>;
}

/** One direction of the link: when it is next free, so chunks queue behind each other at its rate. */
interface Lane {
  freeAt: number;
  up: boolean;
}

export interface LinkLag {
  /** Every chunk passed on, with its lateness against when it was due. */
  chunks: ChunkDelivery[];
  /** The proxy's thread's event-loop delay (ms): how late it may also have heard a chunk. */
  loopDelayMs: { p50: number; p99: number; max: number };
}

/** A connection's last request line (what its answer is an answer to). */
interface Exchange {
  request: string;
}

function forward(
  from: net.Socket,
  to: net.Socket,
  lane: Lane,
  options: DelayingProxyOptions,
  count: (n: number) => void,
  exchange: Exchange,
  delivered: (delivery: ChunkDelivery) => void,
) {
  const up = lane.up;
  // Chunks of one connection keep their order: each is due no earlier than the one before.
  let lastDue = 0;
  let ended = false;
  let pending = 0;
  from.on('data', (chunk: Buffer) => {
    count(chunk.length);
    const now = performance.now();
    const sending = options.bitsPerSecond ? (chunk.length * 8 * 1000) / options.bitsPerSecond : 0;
    lane.freeAt = Math.max(lane.freeAt, now) + sending;
    const due = Math.max(lastDue, lane.freeAt + options.rttMs / 2);
    lastDue = due;
    pending++;
    const deliver = () => {
      pending--;
      const atMs = performance.now();
      delivered({ request: exchange.request, up, atMs, lateMs: Math.max(0, atMs - due) });
      if (!to.destroyed) to.write(chunk);
      if (ended && pending === 0) to.end();
    };
    if (due - now <= 0.5) deliver();
    // The wire's delay itself (what this proxy is for), not a test waiting on time.
    else setTimeout(() => deliver(), due - now);
  });
  from.on('end', () => {
    ended = true;
    if (pending === 0) to.end();
  });
}

const METHOD = /^(GET|POST|PUT|PATCH|DELETE|HEAD) \S+ HTTP\/1\.[01]$/;

/** The request lines a chunk from a client starts with (its first line, when it is one). */
function requestLine(chunk: Buffer, hear: (line: string) => void): void {
  const end = chunk.indexOf(13);
  if (end <= 0 || end > 4096) return;
  const line = chunk.toString('latin1', 0, end);
  if (METHOD.test(line)) hear(line);
}

export async function startDelayingProxy(options: DelayingProxyOptions): Promise<DelayingProxy> {
  const down: Lane = { freeAt: 0, up: false };
  const up: Lane = { freeAt: 0, up: true };
  const deliveries: ChunkDelivery[] = [];
  const delivered = (delivery: ChunkDelivery) => void deliveries.push(delivery);
  const loopDelay = monitorEventLoopDelay({ resolution: 1 });
  loopDelay.enable();
  const sockets = new Set<net.Socket>();
  const proxy: DelayingProxy = {
    url: '',
    host: options.host ?? '127.0.0.1',
    port: 0,
    bytesDown: 0,
    bytesUp: 0,
    connections: 0,
    lag: async () => ({
      chunks: [...deliveries],
      loopDelayMs: { p50: loopDelay.percentile(50) / 1e6, p99: loopDelay.percentile(99) / 1e6, max: loopDelay.max / 1e6 },
    }),
    close: () =>
      new Promise<void>((resolve) => {
        loopDelay.disable();
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  const server = net.createServer((client) => {
    proxy.connections++;
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
    const exchange: Exchange = { request: '' };
    client.on('data', (chunk: Buffer) =>
      requestLine(chunk, (line) => {
        exchange.request = line;
        options.onRequest?.(line);
      }),
    );
    forward(client, upstream, up, options, (n) => (proxy.bytesUp += n), exchange, delivered);
    forward(upstream, client, down, options, (n) => (proxy.bytesDown += n), exchange, delivered);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, proxy.host, () => resolve());
  });
  proxy.port = (server.address() as AddressInfo).port;
  proxy.url = `http://${proxy.host.includes(':') ? `[${proxy.host}]` : proxy.host}:${proxy.port}`;
  return proxy;
}
