// One HTTP exchange with the registry, no retries: builds the URL, sends with a timeout, and turns
// transport failures and error answers into RegistryClientError. Retrying is the caller's policy.
import { isLoopbackHost } from '@shared/desk/api';
import { API_VERSION, API_VERSION_HEADER } from '@shared/registry/vocabulary';
import { RegistryClientError } from './errors';
import { whenSent } from './request-sent';

export type FetchLike = (input: Request | string | URL, init?: RequestInit) => Promise<Response>;

export interface HttpRequest {
  method: string;
  /** Path relative to the base URL, already filled. */
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  bearer?: string;
  /** Sent as Idempotency-Key (operator writes). */
  idempotencyKey?: string;
  timeoutMs: number;
  /** For error messages: which endpoint this was. */
  endpoint: string;
  /** False when the caller sends the request again itself (see TransportRequest). */
  transportResends?: false;
  /**
   * Told once the request has left (see TransportRequest), at the latest when its answer or failure
   * is back: possibly twice, so what it does must be done once.
   */
  sent?: () => void;
}

/** Error codes meaning the request never left this machine, so even a POST may be sent again. */
const NEVER_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'ERR_INVALID_URL']);

function errorCode(error: unknown): string | undefined {
  // undici wraps the socket error: TypeError('fetch failed', { cause: { code } }), sometimes nested.
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export class NetworkError extends RegistryClientError {
  constructor(
    message: string,
    readonly neverSent: boolean,
    details: { endpoint: string; cause: unknown },
  ) {
    super('network', message, details);
  }
}

export function buildUrl(baseUrl: string, path: string, query?: HttpRequest['query']): string {
  const url = new URL(baseUrl.replace(/\/+$/, '') + path);
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  return url.toString();
}

/**
 * Whether the registry is on this machine (the embedded one, or a local server): its answers are
 * then asked for uncompressed. Compressing costs both ends CPU (on the changes feed, a second of the
 * registry's gzip and the desk's inflate at --scale 100, on the same cores) and saves no wire time.
 */
export function isLoopbackUrl(baseUrl: string): boolean {
  try {
    // The desk's own rule for "this computer" (the one that allows http: for such a registry).
    return isLoopbackHost(new URL(baseUrl).hostname);
  } catch {
    return false;
  }
}

/** What the client reads of an answer: a fetch Response satisfies it, and so does the node:http transport's. */
export interface HttpAnswer {
  readonly status: number;
  readonly statusText: string;
  readonly ok: boolean;
  readonly headers: { get(name: string): string | null; has(name: string): boolean };
  /** The body's chunks as they arrive (decoded), for answers read piece by piece. */
  readonly body: ReadableStream<Uint8Array> | null;
  text(): Promise<string>;
  json(): Promise<unknown>;
  arrayBuffer(): Promise<ArrayBuffer>;
}

export interface TransportRequest {
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
  /** For the whole exchange, answer included: a late answer fails with a TimeoutError. */
  timeoutMs: number;
  /** `METHOD /path`, for the timeout's message. */
  where: string;
  /**
   * False: not sent again by the transport when a kept-alive connection drops it unanswered (the
   * node:http transport's rule), because its caller does that itself with a request built anew.
   */
  transportResends?: false;
  /** Told once the request's headers are written to the connection, where the transport can tell. */
  sent?: () => void;
}

/**
 * Sends one request. Fails with an error named TimeoutError when the exchange outlasts its
 * timeout, and with the socket's error (its `code`, possibly as a `cause`) when it cannot be made.
 */
export type HttpTransport = (url: string, request: TransportRequest) => Promise<HttpAnswer>;

/** The error a transport fails with when its exchange outlasts its timeout (sendHttp reads its name). */
export const timeoutError = (where: string) => new DOMException(`${where}: timed out`, 'TimeoutError');

/** The transport over WHATWG fetch (any registry: https, compressed answers, proxies). */
export function fetchTransport(fetchFn: FetchLike): HttpTransport {
  return async (url, request) => {
    // Our own timer rather than AbortSignal.timeout(): that one stays armed for the whole timeout
    // after the answer has arrived, keeping its signal and (through fetch's abort listener) the
    // finished exchange alive; at hundreds of requests a second that holds hundreds of MB for
    // nothing. This timer is cleared as soon as the body has been read (or the request failed).
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(timeoutError(request.where)), request.timeoutMs);
    const stopWatching = request.sent ? whenSent(url, request.sent) : undefined;
    try {
      const response = await fetchFn(url, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        signal: controller.signal,
      });
      for (const read of ['text', 'json', 'arrayBuffer'] as const) {
        const original: () => Promise<unknown> = response[read].bind(response);
        Object.defineProperty(response, read, {
          value: async () => {
            try {
              return await original();
            } finally {
              clearTimeout(timer);
            }
          },
        });
      }
      // Read piece by piece (callBytes: the feed's pages), the answer ends with its stream: wrapped
      // on first use, so the timer is cleared there too and not left armed for its whole timeout.
      const original = response.body;
      let timed: ReadableStream<Uint8Array> | null | undefined;
      Object.defineProperty(response, 'body', { get: () => (timed ??= original && clearingAtEnd(original, timer)) });
      return response;
    } catch (error) {
      clearTimeout(timer);
      throw error;
    } finally {
      stopWatching?.();
    }
  };
}

/** The same chunks as `body`; `timer` is cleared when they end, fail or are cancelled. */
function clearingAtEnd(body: ReadableStream<Uint8Array>, timer: ReturnType<typeof setTimeout>): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const read = await reader.read();
        if (read.done) {
          clearTimeout(timer);
          controller.close();
        } else controller.enqueue(read.value);
      } catch (error) {
        clearTimeout(timer);
        controller.error(error);
      }
    },
    cancel(reason) {
      clearTimeout(timer);
      return reader.cancel(reason);
    },
  });
}

export async function sendHttp(
  transport: HttpTransport,
  baseUrl: string,
  request: HttpRequest,
  loopback = isLoopbackUrl(baseUrl),
): Promise<HttpAnswer> {
  const headers: Record<string, string> = { accept: 'application/json, application/pdf', [API_VERSION_HEADER]: API_VERSION };
  // Said on both transports (fetch would add its own list; node:http none): gzip and brotli are
  // what the registry compresses in, and what both transports decode.
  headers['accept-encoding'] = loopback ? 'identity' : 'gzip, br';
  if (request.bearer) headers.authorization = `Bearer ${request.bearer}`;
  if (request.idempotencyKey !== undefined) headers['idempotency-key'] = request.idempotencyKey;
  let body: string | undefined;
  if (request.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(request.body);
  }
  const where = `${request.method} ${request.path}`;
  const url = buildUrl(baseUrl, request.path, request.query);
  try {
    const resends = request.transportResends === false ? { transportResends: false as const } : {};
    const sent = request.sent ? { sent: request.sent } : {};
    return await transport(url, { method: request.method, headers, body, timeoutMs: request.timeoutMs, where, ...resends, ...sent });
  } catch (error) {
    const name = (error as { name?: string } | null)?.name;
    if (name === 'TimeoutError' || name === 'AbortError') {
      throw new RegistryClientError('timeout', `${where}: the registry did not answer within ${request.timeoutMs} ms`, {
        endpoint: request.endpoint,
        cause: error,
      });
    }
    const code = errorCode(error);
    throw new NetworkError(
      `${where}: the registry is unreachable (${code ?? (error instanceof Error ? error.message : 'network error')})`,
      code !== undefined && NEVER_SENT_CODES.has(code),
      {
        endpoint: request.endpoint,
        cause: error,
      },
    );
  } finally {
    // Whatever the transport could tell, the request has left (or failed) once this is over.
    request.sent?.();
  }
}

/** Reads an error answer (compatibility.md: `{ statusCode, message, error }`) into a RegistryClientError. */
export async function httpError(
  response: HttpAnswer,
  request: Pick<HttpRequest, 'method' | 'path' | 'endpoint'>,
): Promise<RegistryClientError> {
  let messages: string[] = [];
  let reason: string | undefined;
  try {
    const body = (await response.json()) as { message?: unknown; error?: unknown };
    if (typeof body.message === 'string') messages = [body.message];
    else if (Array.isArray(body.message)) messages = body.message.filter((m): m is string => typeof m === 'string');
    if (typeof body.error === 'string') reason = body.error;
  } catch {
    // Not JSON (a proxy's HTML page, say): the status alone has to do.
  }
  const retryAfter = Number(response.headers.get('retry-after'));
  const summary = messages.length > 0 ? messages.join('; ') : (reason ?? response.statusText ?? 'error');
  return new RegistryClientError('http', `${request.method} ${request.path}: ${response.status} ${summary}`, {
    endpoint: request.endpoint,
    status: response.status,
    messages,
    ...(reason ? { error: reason } : {}),
    ...(Number.isFinite(retryAfter) && response.headers.has('retry-after') ? { retryAfterS: retryAfter } : {}),
  });
}
