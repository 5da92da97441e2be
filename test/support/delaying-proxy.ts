// A TCP proxy on loopback that makes a real network of it: every chunk is held for half the round
// trip each way, and (optionally) the link is capped at a bit rate shared by all connections, as
// one access line is. It counts the bytes each way, so a test or bench can report bytes on the
// wire. Used by the desk's network tests and by `npm run bench -- network`.
//
// The link runs on a thread of its own (delaying-proxy-thread.mjs): on the thread that also serves
// the registry, its timers fired only once the registry's synchronous work was done, so the link's
// latency grew with how busy the registry was, and a run charged the desk for the registry's pauses
// twice. Its lag (lag()) says how faithful a run's link was.
import { Worker } from 'node:worker_threads';

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

export interface LinkLag {
  /** Every chunk passed on, with its lateness against when it was due. */
  chunks: ChunkDelivery[];
  /** The proxy's thread's event-loop delay (ms): how late it may also have heard a chunk. */
  loopDelayMs: { p50: number; p99: number; max: number };
}

/** What the proxy's thread (delaying-proxy-thread.mjs) is started with. */
interface ProxyThreadData {
  options: { target: { host: string; port: number }; rttMs: number; bitsPerSecond?: number; host: string };
  /** BigInt64Array over it, indexed by COUNT. */
  counts: SharedArrayBuffer;
  /** The starting thread's performance.timeOrigin: times are sent on its clock. */
  timeOrigin: number;
  hearRequests: boolean;
}

/** The shared counts' indexes (the thread's BYTES_DOWN, BYTES_UP, CONNECTIONS). */
const COUNT = { bytesDown: 0, bytesUp: 1, connections: 2 } as const;

type ToProxyThread = { type: 'lag' } | { type: 'close' };
type FromProxyThread =
  | { type: 'listening'; port: number }
  | { type: 'request'; line: string; atMs: number }
  | { type: 'lag'; lag: LinkLag }
  | { type: 'closed' };

const THREAD = new URL('./delaying-proxy-thread.mjs', import.meta.url);

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
   * Hears each request's first line ("GET /path HTTP/1.1") and when the proxy received it from the
   * client (performance.now(), before its delay; the network bench times the sync's phases by them).
   */
  onRequest?: (line: string, atMs: number) => void;
}

export interface DelayingProxy {
  url: string;
  host: string;
  port: number;
  /** Bytes from the server to the clients, and from the clients to the server. */
  readonly bytesDown: number;
  readonly bytesUp: number;
  /** Connections the clients opened. */
  readonly connections: number;
  /** The proxy's own lag so far: what a faithful link would not add. */
  lag(): Promise<LinkLag>;
  close(): Promise<void>;
}

export async function startDelayingProxy(options: DelayingProxyOptions): Promise<DelayingProxy> {
  const host = options.host ?? '127.0.0.1';
  const counts = new SharedArrayBuffer(3 * BigInt64Array.BYTES_PER_ELEMENT);
  const data: ProxyThreadData = {
    options: {
      target: options.target,
      rttMs: options.rttMs,
      host,
      ...(options.bitsPerSecond ? { bitsPerSecond: options.bitsPerSecond } : {}),
    },
    counts,
    timeOrigin: performance.timeOrigin,
    hearRequests: options.onRequest !== undefined,
  };
  const worker = new Worker(THREAD, { workerData: data });
  const exited = new Promise((resolve) => worker.once('exit', resolve));
  const lags: ((lag: LinkLag) => void)[] = [];
  const port = await new Promise<number>((resolve, reject) => {
    // An error once it listens ends the thread and its sockets: a test sees failed requests.
    worker.on('error', reject);
    worker.on('message', (message: FromProxyThread) => {
      if (message.type === 'listening') resolve(message.port);
      else if (message.type === 'request') options.onRequest?.(message.line, message.atMs);
      else if (message.type === 'lag') lags.shift()?.(message.lag);
    });
  });
  const send = (message: ToProxyThread) => worker.postMessage(message);
  const count = new BigInt64Array(counts);
  const read = (i: number) => Number(Atomics.load(count, i));
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    host,
    port,
    get bytesDown() {
      return read(COUNT.bytesDown);
    },
    get bytesUp() {
      return read(COUNT.bytesUp);
    },
    get connections() {
      return read(COUNT.connections);
    },
    lag: () =>
      new Promise<LinkLag>((resolve) => {
        lags.push(resolve);
        send({ type: 'lag' });
      }),
    close: async () => {
      send({ type: 'close' });
      await exited;
    },
  };
}
