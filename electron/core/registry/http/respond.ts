// A handler's result as the HTTP answer: a file, JSON text already serialized (compressed when the
// client accepts it), or a JSON value.
import type { Context } from 'hono';
import { acceptedEncoding, COMPRESS_MIN_BYTES, compressedOnce } from './compression';
import type { FileAnswer, JsonText } from './types';

/** A handler's result as the response: a file, JSON text (compressed when accepted), or a JSON value. */
export async function respond(c: Context, result: unknown, status: number) {
  if (isFileAnswer(result)) {
    c.header('Content-Type', result.contentType);
    c.header('Content-Disposition', `attachment; filename=${result.filename}`);
    c.header('Cache-Control', 'no-store');
    return c.body(result.bytes as Uint8Array<ArrayBuffer>);
  }
  if (isJsonText(result)) {
    c.header('Content-Type', 'application/json');
    const encoding = result.bytes.byteLength >= COMPRESS_MIN_BYTES ? acceptedEncoding(c.req.header('accept-encoding')) : null;
    if (encoding) {
      // Compressed here rather than by compressAnswers: a cached page is then compressed once.
      c.header('Content-Encoding', encoding);
      return c.body((await compressedOnce(result.bytes, encoding)) as Uint8Array<ArrayBuffer>);
    }
    return c.body(result.bytes as Uint8Array<ArrayBuffer>);
  }
  return c.json(result as object, status as 200);
}

function isJsonText(value: unknown): value is JsonText<unknown> {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'json-text' && 'bytes' in value;
}

function isFileAnswer(value: unknown): value is FileAnswer {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'file' && 'bytes' in value;
}
