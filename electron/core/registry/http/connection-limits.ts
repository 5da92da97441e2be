// What the registry's HTTP server refuses before any route runs, so that one client cannot hold the
// server with connections it never finishes (slow sockets): a cap on the connections one address
// holds at once, and deadlines for a request's headers, for the whole request, and for each pause
// while a body arrives. Also the two requests no route can answer: an HTTP/1.1 request without a
// Host header (400, as HTTP/1.1 requires) and CONNECT (405: the registry is no proxy). Each is
// answered in the JSON error shape with `Connection: close`, never by a silent close. And how long
// an idle kept-alive connection stays open: longer than advertised (see serverOptionsFor).
import {
  createServer,
  ServerResponse,
  type IncomingMessage,
  type OutgoingHttpHeader,
  type OutgoingHttpHeaders,
  type RequestListener,
  type Server,
  type ServerOptions,
} from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { DEFAULT_BODY_IDLE_MS } from './body';
import { rawErrorResponse } from './client-errors';
import { errorBody } from './pipeline-parts';

export interface ConnectionLimits {
  /** Connections one client address may hold open at once; past it a new one is answered 429 and closed. */
  perAddress: number;
  /** Time a request's headers may take to arrive (from the connection, or from the end of the previous answer); then 408. */
  headersMs: number;
  /** Time a whole request, body included, may take to arrive; then 408. */
  requestMs: number;
  /** Longest pause while a request body arrives; then 408 (body.ts). */
  bodyIdleMs: number;
  /** How long an idle kept-alive connection is said to stay open (`Keep-Alive: timeout=`, whole seconds). */
  keepAliveMs: number;
}

/** docs/security.md, Limits. 256 per address: the desk's request gate opens at most 128 at once. */
export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  perAddress: 256,
  headersMs: 10_000,
  requestMs: 60_000,
  bodyIdleMs: DEFAULT_BODY_IDLE_MS,
  keepAliveMs: 5000,
};

/** Beyond the longest hold: the turn in which the held process runs its timers, then reads its sockets. */
const KEEP_ALIVE_SLACK_MS = 1000;

const METHODS = 'GET, POST, PATCH, DELETE, OPTIONS';

/**
 * Node's own settings for the header and request deadlines (checked every second, or sooner for
 * short ones), and for idle kept-alive connections. `holdMs`: the longest the process can be held by
 * one synchronous database call (SyncDatabase.longestHoldMs), during which it runs no timer and
 * reads no socket. When it resumes, Node runs its expired timers before it reads: a connection kept
 * open exactly as long as advertised would be closed then with the client's next request, sent in
 * time, unread (the client sees a reset and cannot tell whether to send it again). So the connection
 * is kept open longer than advertised by more than the hold; a client idle past that is closed.
 * (Node 20.20 keeps a socket 1 s past keepAliveTimeout too; a client may send until the advertised
 * time, so that second covers holds under 1 s only.)
 */
export function serverOptionsFor(limits: ConnectionLimits, holdMs: number): ServerOptions {
  return {
    headersTimeout: limits.headersMs,
    requestTimeout: limits.requestMs,
    connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(limits.headersMs / 4))),
    keepAliveTimeout: limits.keepAliveMs + holdMs + KEEP_ALIVE_SLACK_MS,
    ServerResponse: advertisingKeepAlive(limits.keepAliveMs),
    // answered here instead, in the error shape (Node would close with an empty 400)
    requireHostHeader: false,
  };
}

/** Whether headers given to writeHead (an object, or a list of names and values) say `Connection: close`. */
function saysClose(headers: OutgoingHttpHeaders | OutgoingHttpHeader[] | undefined): boolean {
  if (headers === undefined) return false;
  const flat = Array.isArray(headers) ? headers.flat() : Object.entries(headers).flat();
  return flat.some((name, i) => i % 2 === 0 && String(name).toLowerCase() === 'connection' && /close/i.test(String(flat[i + 1])));
}

/**
 * Responses that advertise `Keep-Alive: timeout=<keepAliveMs in seconds>` on a connection kept open.
 * Node writes its own Keep-Alive header from server.keepAliveTimeout only when the response sets
 * none (_http_outgoing.js, Node 20), so this advertises less than the server keeps.
 */
function advertisingKeepAlive(keepAliveMs: number): typeof ServerResponse {
  const advertised = `timeout=${Math.max(1, Math.floor(keepAliveMs / 1000))}`;
  class AdvertisingKeepAlive extends ServerResponse {
    override writeHead(
      statusCode: number,
      reasonOrHeaders?: string | OutgoingHttpHeaders | OutgoingHttpHeader[],
      headers?: OutgoingHttpHeaders | OutgoingHttpHeader[],
    ): this {
      const given = typeof reasonOrHeaders === 'string' ? headers : reasonOrHeaders;
      const closing = !this.shouldKeepAlive || saysClose(given) || /close/i.test(String(this.getHeader('connection') ?? ''));
      if (!closing && !this.hasHeader('keep-alive')) this.setHeader('Keep-Alive', advertised);
      return typeof reasonOrHeaders === 'string'
        ? super.writeHead(statusCode, reasonOrHeaders, headers)
        : super.writeHead(statusCode, given);
    }
  }
  // Node constructs it for any request type; this one only reads the response's own state
  return AdvertisingKeepAlive as typeof ServerResponse;
}

function answer(res: ServerResponse, status: number, message: string): void {
  res.shouldKeepAlive = false;
  res.writeHead(status, { 'Content-Type': 'application/json', Connection: 'close' });
  res.end(JSON.stringify(errorBody(status, message)));
}

/**
 * A `createServer` for @hono/node-server's serve(): the routes' listener behind the checks above.
 * `exempt` are addresses the per-address cap does not apply to (trusted proxies: every client behind
 * a load balancer arrives from its address).
 */
export function limitedServer(limits: ConnectionLimits, exempt: ReadonlySet<string>) {
  return (options: ServerOptions, listener: RequestListener): Server => {
    const refused = new WeakSet<Socket>();
    const server = createServer(options, (req: IncomingMessage, res: ServerResponse) => {
      if (refused.has(req.socket)) return void req.socket.destroy(); // its 429 is already out
      if (req.httpVersion === '1.1' && req.headers.host === undefined) {
        return answer(res, 400, 'An HTTP/1.1 request needs a Host header (the address it was sent to)');
      }
      listener(req, res);
    });
    server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
      socket.end(rawErrorResponse(405, 'CONNECT is not supported: the registry is not a proxy', { Allow: METHODS }));
    });
    capPerAddress(server, limits.perAddress, exempt, refused);
    return server;
  };
}

const plain = (address: string | undefined) => (address ?? 'unknown').replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1');

/**
 * Counts open connections per peer address. One over the cap is answered at once (429 with
 * Retry-After, its request never routed) and closed. A connection stops counting once the server has
 * ended it (its last answer is out, e.g. a 408) and is destroyed a second later if its client does
 * not close it, so neither refused nor ended connections pile up.
 */
function capPerAddress(server: Server, cap: number, exempt: ReadonlySet<string>, refused: WeakSet<Socket>): void {
  const open = new Map<string, number>();
  const destroyLater = (socket: Socket) => setTimeout(() => socket.destroy(), 1000).unref();
  server.prependListener('connection', (socket: Socket) => {
    const address = plain(socket.remoteAddress);
    if (exempt.has(address)) return;
    const count = open.get(address) ?? 0;
    if (count >= cap) {
      refused.add(socket);
      const message = `Too many connections from this address (at most ${cap} at once); retry after one closes`;
      socket.end(rawErrorResponse(429, message, { 'Retry-After': '1' }));
      destroyLater(socket);
      return;
    }
    open.set(address, count + 1);
    let counted = true;
    const release = () => {
      if (!counted) return;
      counted = false;
      const left = (open.get(address) ?? 1) - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    };
    socket.once('finish', () => (release(), destroyLater(socket)));
    socket.once('close', release);
  });
}
