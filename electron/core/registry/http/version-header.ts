// The version header a client may send: optional, but when present it must name the one supported
// version, once.
import type { MiddlewareHandler } from 'hono';
import { API_VERSION, API_VERSION_HEADER } from '@shared/registry/vocabulary';
import { errorResponse } from './pipeline-parts';

/** How many times the request carries header `name` (Node's raw headers; 0 or 1 when not known). */
export function headerCount(c: { env: unknown; req: { header(name: string): string | undefined } }, name: string): number {
  const raw = (c.env as { incoming?: { rawHeaders?: string[] } } | undefined)?.incoming?.rawHeaders;
  if (!raw) return c.req.header(name) === undefined ? 0 : 1;
  const lower = name.toLowerCase();
  return raw.filter((value, i) => i % 2 === 0 && value.toLowerCase() === lower).length;
}

/**
 * 400 for another version. Given twice (even with the same value) it is refused too: a client
 * sending it twice is confused about it.
 */
export function versionHeaderCheck(): MiddlewareHandler {
  return async (c, next) => {
    const version = c.req.header(API_VERSION_HEADER);
    if (headerCount(c, API_VERSION_HEADER) > 1 || version?.includes(',')) {
      return errorResponse(c, 400, `${API_VERSION_HEADER} is given more than once; send it once (${API_VERSION})`);
    }
    if (version !== undefined && version.trim() !== API_VERSION) {
      return errorResponse(c, 400, `Unsupported ${API_VERSION_HEADER} "${version}"; the supported version is ${API_VERSION}`);
    }
    await next();
  };
}
