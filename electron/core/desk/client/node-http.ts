// The registry client's transport over node:http and node:https, for every registry the desk
// reaches (the embedded one, a local server, a registry elsewhere over https). WHATWG fetch costs
// the sync worker ~240 µs of CPU per loopback GET against ~90 µs for node:http with a keep-alive
// agent (bench/http-transports.ts), and a first sync through the seed interface makes ~21,000 of
// them; and fetch inflates a compressed answer chunk by chunk through web streams, which cost a
// first sync at --scale 10 two to four seconds of the worker's CPU more than one inflate per answer
// (bench/README.md, "Network"). It keeps fetch's behaviour where the client can see it: status,
// status text, headers (repeated ones joined with ", "), the body read once, as text (UTF-8, a BOM
// dropped), JSON or bytes, gzip/deflate/br answers decoded, one timer for the whole exchange (answer
// included) failing with a TimeoutError, socket and certificate errors with their code, the
// certificates Node trusts (as fetch). Redirects are followed by fetch: see `transportFor`.
import http from 'node:http';
import https from 'node:https';
import zlib from 'node:zlib';
import { fetchTransport, timeoutError, type FetchLike, type HttpAnswer, type HttpTransport, type TransportRequest } from './http';

type Waiter = { resolve: (body: Buffer) => void; reject: (error: Error) => void };

/** An answer whose body is collected as it arrives (so the socket is freed for the next request). */
class NodeAnswer implements HttpAnswer {
  readonly status: number;
  readonly statusText: string;
  readonly ok: boolean;
  private readonly raw: string[];
  private headerMap: Map<string, string> | undefined;
  private chunks: Buffer[] = [];
  private whole: Buffer | undefined;
  private error: Error | undefined;
  private waiter: Waiter | undefined;
  private used = false;
  private ended = false;
  /** Where chunks go once `body` has been asked for: the stream's controller. */
  private sink: ReadableStreamDefaultController<Uint8Array> | undefined;
  private stream: ReadableStream<Uint8Array> | undefined;

  constructor(response: http.IncomingMessage, done: () => void) {
    this.status = response.statusCode ?? 0;
    this.statusText = response.statusMessage ?? '';
    this.ok = this.status >= 200 && this.status <= 299;
    this.raw = response.rawHeaders;
    response.on('data', (chunk: Buffer) => (this.sink ? this.sink.enqueue(chunk) : this.chunks.push(chunk)));
    response.on('end', () => {
      done();
      this.finish(Buffer.concat(this.chunks));
    });
    response.on('error', (error) => this.fail(error));
    response.on('close', () => {
      if (!response.complete) this.fail(Object.assign(new Error('the answer was cut off'), { code: 'ECONNRESET' }));
    });
  }

  readonly headers = {
    get: (name: string): string | null => this.headerValues().get(name.toLowerCase()) ?? null,
    has: (name: string): boolean => this.headerValues().has(name.toLowerCase()),
  };

  private headerValues(): Map<string, string> {
    if (!this.headerMap) {
      const map = new Map<string, string>();
      for (let i = 0; i < this.raw.length; i += 2) {
        const name = this.raw[i]!.toLowerCase();
        const previous = map.get(name);
        map.set(name, previous === undefined ? this.raw[i + 1]! : `${previous}, ${this.raw[i + 1]}`);
      }
      this.headerMap = map;
    }
    return this.headerMap;
  }

  /**
   * The body as a stream of its chunks, as fetch's (the client copies large answers into its
   * caller's buffers chunk by chunk). Made on demand: the chunks that arrived before are sent first.
   */
  get body(): ReadableStream<Uint8Array> {
    this.stream ??= new ReadableStream<Uint8Array>({
      start: (controller) => {
        const encoding = this.headers.get('content-encoding');
        if ((encoding !== null && encoding.trim().toLowerCase() !== 'identity') || this.used) {
          // Encoded (never asked for on loopback): decoded whole, as one chunk.
          this.read().then(
            (body) => {
              controller.enqueue(body);
              controller.close();
            },
            (error: Error) => controller.error(error),
          );
          return;
        }
        this.used = true;
        if (this.whole) controller.enqueue(this.whole);
        for (const chunk of this.chunks) controller.enqueue(chunk);
        this.chunks = [];
        if (this.error !== undefined) controller.error(this.error);
        else if (this.ended) controller.close();
        else this.sink = controller;
      },
    });
    return this.stream;
  }

  private finish(body: Buffer) {
    if (this.ended || this.error !== undefined) return;
    this.ended = true;
    if (this.sink) return this.sink.close();
    this.whole = body;
    this.chunks = [];
    this.waiter?.resolve(body);
  }

  /** The exchange failed before the whole body arrived (timeout, socket closed). */
  fail(error: Error) {
    if (this.ended || this.error !== undefined) return;
    this.error = error;
    this.chunks = [];
    if (this.sink) return this.sink.error(error);
    this.waiter?.reject(error);
  }

  private read(): Promise<Buffer> {
    if (this.used) return Promise.reject(new TypeError('Body is unusable: Body has already been read'));
    this.used = true;
    const decoded = (body: Buffer) => decode(body, this.headers.get('content-encoding'));
    if (this.whole) return Promise.resolve().then(() => decoded(this.whole!));
    if (this.error !== undefined) return Promise.reject(this.error);
    return new Promise<Buffer>((resolve, reject) => (this.waiter = { resolve, reject })).then(decoded);
  }

  async text(): Promise<string> {
    const body = await this.read();
    // As TextDecoder (fetch's text()): UTF-8, a leading BOM dropped, bad bytes replaced.
    const start = body.length >= 3 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf ? 3 : 0;
    return body.toString('utf8', start);
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const body = await this.read();
    return body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength) as ArrayBuffer;
  }
}

/** Undoes the answer's Content-Encoding as fetch does (gzip, deflate, br; unknown ones left as they are). */
function decode(body: Buffer, encoding: string | null): Buffer {
  if (!encoding) return body;
  const codings = encoding
    .toLowerCase()
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '' && c !== 'identity');
  let result = body;
  for (const coding of codings.reverse()) {
    if (coding === 'gzip' || coding === 'x-gzip') result = zlib.gunzipSync(result, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
    else if (coding === 'deflate') {
      // With or without the zlib wrapper, as fetch accepts both.
      result = (result[0]! & 0x0f) === 0x08 ? zlib.inflateSync(result) : zlib.inflateRawSync(result);
    } else if (coding === 'br') result = zlib.brotliDecompressSync(result);
    else return body;
  }
  return result;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** What `nodeHttpTransport` may be told: tests trust a certificate of their own (the desk never does). */
export interface NodeTransportOptions {
  /** Certificates trusted for https, in place of Node's own list. */
  ca?: string;
}

/** The node:http(s) transport, with keep-alive agents of its own (one for http, one for https). */
export function nodeHttpTransport(fallback: HttpTransport = fetchTransport(fetch), options: NodeTransportOptions = {}): HttpTransport {
  const agent = new http.Agent({ keepAlive: true });
  let tlsAgent: https.Agent | undefined;
  // A kept-alive connection the registry has already closed (its idle timeout, or a restart) fails
  // the next request sent on it with a reset before any answer: the registry never read it. Such a
  // request is sent once more on a new connection, as Node's documentation advises
  // (`request.reusedSocket`), unless its caller resends it itself (`transportResends: false`); a
  // reset on a new connection is reported as it is.
  const send = (url: string, request: TransportRequest, resent: boolean): Promise<HttpAnswer> =>
    new Promise<HttpAnswer>((resolve, reject) => {
      let answer: NodeAnswer | undefined;
      const headers =
        request.body === undefined ? request.headers : { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) };
      const outgoing = url.startsWith('https:')
        ? https.request(url, {
            method: request.method,
            headers,
            agent: (tlsAgent ??= new https.Agent({ keepAlive: true, ...(options.ca !== undefined ? { ca: options.ca } : {}) })),
          })
        : http.request(url, { method: request.method, headers, agent });
      const timer = setTimeout(() => {
        const error = timeoutError(request.where);
        answer?.fail(error);
        outgoing.destroy(error);
      }, request.timeoutMs);
      outgoing.on('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        if (answer) answer.fail(error);
        else if (
          !resent &&
          request.transportResends !== false &&
          outgoing.reusedSocket &&
          (error.code === 'ECONNRESET' || error.code === 'EPIPE')
        ) {
          resolve(send(url, request, true));
        } else reject(error);
      });
      outgoing.on('response', (response) => {
        if (REDIRECTS.has(response.statusCode ?? 0) && response.headers.location !== undefined) {
          clearTimeout(timer);
          response.resume();
          resolve(fallback(url, request));
          return;
        }
        answer = new NodeAnswer(response, () => clearTimeout(timer));
        resolve(answer);
      });
      outgoing.end(request.body);
    });
  return (url, request: TransportRequest) => send(url, request, false);
}

/**
 * The transport for a registry at `baseUrl`: node:http(s) for http and https addresses (the only
 * ones a connection may have); fetch for anything else, which reports it as it always has.
 */
export function transportFor(baseUrl: string, fetchFn: FetchLike = fetch): HttpTransport {
  const viaFetch = fetchTransport(fetchFn);
  let protocol = '';
  try {
    protocol = new URL(baseUrl).protocol;
  } catch {
    // Not a URL: fetch reports it as it always has.
  }
  return protocol === 'http:' || protocol === 'https:' ? nodeHttpTransport(viaFetch) : viaFetch;
}
