// Reading an answer's body: as text, or as bytes into a caller's buffer. A body cut off midway is
// a network failure of the call.
import type { EndpointId } from '@shared/registry/endpoints';
import { RegistryClientError } from './errors';
import type { HttpAnswer } from './http';

export async function readText(response: HttpAnswer, id: EndpointId): Promise<string> {
  try {
    return await response.text();
  } catch (error) {
    throw new RegistryClientError('network', `${id}: the answer was cut off`, { endpoint: id, cause: error });
  }
}

/**
 * The body's bytes, copied into the buffer `into` gives; `arrived`, if given, is shown the bytes
 * received so far after each piece (a view of the buffer: valid until the next piece).
 */
export async function readBytes(
  response: HttpAnswer,
  id: EndpointId,
  into: (size: number) => Buffer,
  arrived?: (sofar: Buffer) => void,
): Promise<Buffer> {
  try {
    // Copied chunk by chunk into the caller's buffer (its Content-Length's size, then larger as
    // needed), never held as chunks and a whole copy of them at once.
    const declared = Number(response.headers.get('content-length'));
    let buffer = into(Number.isSafeInteger(declared) && declared > 0 ? declared : 1 << 16);
    let size = 0;
    const reader = response.body?.getReader();
    for (let read = await reader?.read(); read && !read.done; read = await reader!.read()) {
      const chunk = read.value;
      if (size + chunk.length > buffer.length) {
        const larger = into(Math.max(size + chunk.length, buffer.length * 2));
        buffer.copy(larger, 0, 0, size);
        buffer = larger;
      }
      buffer.set(chunk, size);
      size += chunk.length;
      arrived?.(buffer.subarray(0, size));
    }
    return buffer.subarray(0, size);
  } catch (error) {
    throw new RegistryClientError('network', `${id}: the answer was cut off`, { endpoint: id, cause: error });
  }
}
