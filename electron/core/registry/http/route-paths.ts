// Where each endpoint of the table is routed: contract paths in hono's syntax, the order that lets
// static segments win, and the pattern that tells a wrong method (405) from no route (404).
import type { EndpointDefinition } from '@shared/registry/endpoints';

/**
 * `/a/{b}/c` to a RegExp matching concrete paths, for the 405 check. Exact: a path with a trailing
 * slash is no route (404), as hono routes it, rather than a 405 whose Allow lists the method asked.
 */
export const pathPattern = (path: string) => new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}$`);

/** Contract paths to hono's `:param` syntax. */
export const honoPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/**
 * Static segments must win over parameters (`/projects/internal` before `/projects/{id}`): hono
 * runs matching routes in registration order, so register the most specific paths first.
 */
export function routeOrder(a: EndpointDefinition, b: EndpointDefinition): number {
  const score = (p: string) =>
    p
      .split('/')
      .map((s) => (s.startsWith('{') ? '1' : '0'))
      .join('');
  const sa = score(a.path);
  const sb = score(b.path);
  return sa === sb ? 0 : sa < sb ? -1 : 1;
}
