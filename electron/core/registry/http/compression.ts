// Compressed answers: every JSON answer of 1 KiB or more goes gzip- (or brotli-) compressed to a
// client that accepts it. A page of 100 projects is ~290 KiB of JSON and ~25 KiB gzipped: on a
// 20 Mbit/s link that is 120 ms of transfer against 10. Compression runs in libuv's pool (off the
// event loop), at speed rather than ratio (gzip level 1, brotli quality 3).
//
// Never compressed: answers that are not JSON (PDF certificates are compressed already, an event
// stream must reach the client chunk by chunk), answers already encoded, HEAD, `no-transform`.
// A body that arrives in several chunks (a streamed answer) is compressed as a stream, each chunk
// flushed as it comes, so nothing waits for the end of a stream.
import type { Context, MiddlewareHandler } from 'hono';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, createBrotliCompress, createGzip, gzip } from 'node:zlib';

/** Answers smaller than this go as they are: compressing saves less than a packet. */
export const COMPRESS_MIN_BYTES = 1024;

export type AnswerEncoding = 'gzip' | 'br';

/**
 * The encoding to answer in: gzip when the client accepts it (fast at level 1, and every client has
 * it), else brotli, else none. `q=0` refuses an encoding; `*` accepts gzip.
 */
export function acceptedEncoding(header: string | undefined): AnswerEncoding | null {
  if (!header) return null;
  const accepted = new Set<string>();
  const refused = new Set<string>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const coding = name?.trim();
    if (!coding) continue;
    if (q !== undefined && Number(q.slice(2)) === 0) refused.add(coding);
    else accepted.add(coding);
  }
  if (accepted.has('gzip') || (accepted.has('*') && !refused.has('gzip'))) return 'gzip';
  if (accepted.has('br')) return 'br';
  return null;
}

/** JSON by its media type (`application/json`, `application/problem+json`, with any parameters). */
export function isJsonType(contentType: string | null): boolean {
  if (!contentType) return false;
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** A whole body compressed off the event loop. */
export function compressBytes(encoding: AnswerEncoding, bytes: Uint8Array): Promise<Buffer> {
  return encoding === 'gzip'
    ? gzipAsync(bytes, { level: 1 })
    : brotliAsync(bytes, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 3, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
}

/** Compressed forms of answers held in a cache (a page of projects), made once per encoding. */
const compressedForms = new WeakMap<Uint8Array, Partial<Record<AnswerEncoding, Promise<Buffer>>>>();

/**
 * `bytes` compressed, once per bytes object: a cached answer sent again and again (the registry's
 * pages of projects) costs the compression once, not per request. Kept as long as `bytes` is.
 */
export function compressedOnce(bytes: Uint8Array, encoding: AnswerEncoding): Promise<Buffer> {
  let forms = compressedForms.get(bytes);
  if (!forms) compressedForms.set(bytes, (forms = {}));
  return (forms[encoding] ??= compressBytes(encoding, bytes));
}

/** A streamed body compressed chunk by chunk, each flushed so the client sees it as it comes. */
function compressStream(
  encoding: AnswerEncoding,
  first: Uint8Array,
  second: ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']>,
  rest: ReadableStreamDefaultReader<Uint8Array>,
): ReadableStream {
  const compressor =
    encoding === 'gzip'
      ? createGzip({ level: 1, flush: zlibConstants.Z_SYNC_FLUSH })
      : createBrotliCompress({
          flush: zlibConstants.BROTLI_OPERATION_FLUSH,
          params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 3 },
        });
  const source = Readable.from(
    (async function* chunks() {
      yield first;
      for (let read = await second; !read.done; read = await rest.read()) yield read.value;
    })(),
  );
  source.on('error', (error) => compressor.destroy(error));
  source.pipe(compressor);
  return Readable.toWeb(compressor) as ReadableStream;
}

function skipped(c: Context): boolean {
  const res = c.res;
  if (c.req.method === 'HEAD' || res.status === 204 || res.status === 304 || res.body === null) return true;
  if (res.headers.has('content-encoding')) return true;
  if (/(^|,)\s*no-transform\s*(,|$)/i.test(res.headers.get('cache-control') ?? '')) return true;
  const declared = res.headers.get('content-length');
  return declared !== null && Number(declared) < COMPRESS_MIN_BYTES;
}

/** The middleware: mount it first, so it sees every answer (errors included) last. */
export function compressAnswers(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (!isJsonType(c.res.headers.get('content-type'))) return;
    // The answer differs by Accept-Encoding (caches must key on it), compressed this time or not.
    c.res.headers.append('Vary', 'Accept-Encoding');
    const encoding = acceptedEncoding(c.req.header('accept-encoding'));
    if (encoding === null || skipped(c)) return;
    const original = c.res;
    const reader = (original.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    if (first.done) return void (c.res = new Response(null, original));
    // A body held whole (every answer of ours) has ended by the next turn of the event loop; one
    // still open then is a stream, whose next chunk may wait on the client: compressed as it comes.
    const second = reader.read();
    const ended = await Promise.race([second, new Promise<'open'>((resolve) => setImmediate(resolve, 'open'))]);
    let body: Buffer | ReadableStream;
    if (ended !== 'open' && ended.done) {
      // The usual answer: one buffer. Small ones go as they are.
      if (first.value.byteLength < COMPRESS_MIN_BYTES) return void (c.res = new Response(first.value, original));
      body = await compressBytes(encoding, first.value);
    } else {
      body = compressStream(encoding, first.value, second, reader);
    }
    const headers = new Headers(original.headers);
    headers.delete('content-length');
    headers.set('content-encoding', encoding);
    // c.res's setter copies the old answer's headers onto the new one: drop what must not carry over.
    original.headers.delete('content-length');
    original.headers.set('content-encoding', encoding);
    c.res = new Response(body, { status: original.status, statusText: original.statusText, headers });
  };
}
