// Request bodies, read with a cap: a request whose Content-Length is over the cap is answered 413
// before any of its body is read (and its connection closed, so the rest is never read either); a
// body without a length (chunked) is read until it passes the cap, then refused the same way. Only
// endpoints that take a body read one. A client that goes away mid-upload is no internal error.
import type { Context, MiddlewareHandler } from 'hono';
import { RegistryError } from '../errors';

/** The default cap: 1 MB (docs/operations.md, `--max-body`). */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** The longest pause while a body arrives (connection-limits.ts keeps the same default). */
export const DEFAULT_BODY_IDLE_MS = 10_000;

/** The client closed the connection (or the upload broke off) before its body was complete. */
export class ClientAbortedError extends Error {
  constructor(options?: ErrorOptions) {
    super('the client closed the connection before sending the whole request body', options);
    this.name = 'ClientAbortedError';
  }
}

export function tooLarge(maxBytes: number): RegistryError {
  // Connection: close, so the server does not read (and drain) the rest of a body it refused.
  return new RegistryError('payload_too_large', `The request body is larger than ${maxBytes} bytes`, { Connection: 'close' });
}

/**
 * Refuses a declared Content-Length over the cap before anything else runs (authentication included),
 * except on the operator paths: there the operator is authenticated first, so that the refusal is
 * audited (operator-pipeline.ts checks the same length before reading anything).
 */
export function bodyCap(maxBytes: number): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.path.startsWith('/operator/v1/')) return next();
    const declared = c.req.header('content-length');
    if (declared !== undefined && /^\d+$/.test(declared.trim()) && Number(declared.trim()) > maxBytes) throw tooLarge(maxBytes);
    await next();
  };
}

function bodyStalled(idleMs: number): RegistryError {
  const seconds = idleMs / 1000;
  return new RegistryError('request_timeout', `The request body stopped arriving: nothing came for ${seconds} s`, { Connection: 'close' });
}

/**
 * The body as UTF-8 text, at most `maxBytes` bytes; 413 beyond, 408 when nothing arrives for `idleMs`
 * (a slow client holds no request open for long: Connection: close), ClientAbortedError when the
 * upload broke off.
 */
export async function readBodyText(c: Context, maxBytes: number, idleMs = DEFAULT_BODY_IDLE_MS): Promise<string> {
  const signal = c.req.raw.signal;
  if (signal.aborted) throw new ClientAbortedError();
  const stream = c.req.raw.body;
  if (!stream) return '';
  const reader = stream.getReader();
  // A stream whose connection is already gone may never settle: the request's abort signal ends the wait.
  const aborted = new Promise<never>((_, reject) =>
    signal.addEventListener('abort', () => reject(new ClientAbortedError({ cause: signal.reason })), { once: true }),
  );
  aborted.catch(() => undefined);
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let step: { done: true; value?: undefined } | { done: false; value: Uint8Array };
    let timer: NodeJS.Timeout | undefined;
    const stalled = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(bodyStalled(idleMs)), idleMs);
    });
    try {
      step = (await Promise.race([reader.read(), aborted, stalled])) as typeof step;
    } catch (error) {
      reader.cancel().catch(() => undefined);
      throw error instanceof ClientAbortedError || error instanceof RegistryError ? error : new ClientAbortedError({ cause: error });
    } finally {
      clearTimeout(timer);
    }
    if (step.done) break;
    total += step.value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    chunks.push(step.value);
  }
  return Buffer.concat(chunks, total).toString('utf8');
}
