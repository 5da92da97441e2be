// The transparency log's public endpoints (docs/transparency.md): no token, a budget per client
// address, answers any cache may keep (a proof or a page of leaves never changes; the checkpoint
// and the key are cached briefly). Outside the endpoint table: they are not part of the registry
// service interface, so they are routed here and described in /openapi.json by openapi-transparency.ts.
import type { Context, Hono } from 'hono';
import type { RegistryContext } from '../context';
import { badRequest } from '../errors';
import { RateLimiter, type RateLimitOptions } from '../auth/rate-limit';
import { refreshCheckpoint } from '../transparency/checkpoints';
import { logKey } from '../transparency/keys';
import { consistencyProof, inclusionProof, leavesPage, LOOKUP_KINDS, lookupLeaf, type LookupKind } from '../transparency/proofs';

export const TRANSPARENCY_PREFIX = '/transparency/v1';
/** Per client address: generous for a desk re-syncing, a stop for a crawler hammering proofs. */
export const DEFAULT_TRANSPARENCY_RATE: RateLimitOptions = { requests: 1200, windowMs: 60_000 };
const IMMUTABLE = 'public, max-age=31536000, immutable';

function wholeNumber(c: Context, name: string): number {
  const value = c.req.query(name);
  if (value === undefined) throw badRequest(`${name}: is required`);
  if (!/^(?:0|[1-9][0-9]{0,15})$/.test(value) || !Number.isSafeInteger(Number(value))) {
    throw badRequest(`${name}: must be a whole number written in digits only (no sign, spaces or leading zeros)`);
  }
  return Number(value);
}

function clientAddress(c: Context): string {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress ?? 'unknown';
}

export function mountTransparency(app: Hono, registry: RegistryContext, rate: RateLimitOptions = DEFAULT_TRANSPARENCY_RATE): void {
  const limiter = new RateLimiter(rate, () => registry.clock.now());
  const route = (path: string, cache: string, answer: (c: Context) => Response | object) =>
    app.get(`${TRANSPARENCY_PREFIX}${path}`, (c) => {
      limiter.take(`transparency:${clientAddress(c)}`);
      const result = answer(c);
      const response = result instanceof Response ? result : c.json(result);
      response.headers.set('Cache-Control', cache);
      response.headers.set('Access-Control-Allow-Origin', '*');
      return response;
    });
  const text = (c: Context, body: string) => c.text(body, 200, { 'Content-Type': 'text/plain; charset=utf-8' });

  route('/key', 'public, max-age=3600', (c) => text(c, `${logKey(registry).verifierKey}\n`));
  route('/checkpoint', 'public, max-age=2', (c) => text(c, refreshCheckpoint(registry).note));
  route('/leaves', IMMUTABLE, (c) => {
    const start = wholeNumber(c, 'start');
    return leavesPage(registry, start, wholeNumber(c, 'end'));
  });
  route('/proof/inclusion', IMMUTABLE, (c) => {
    const index = wholeNumber(c, 'index');
    return inclusionProof(registry, index, wholeNumber(c, 'size'));
  });
  route('/proof/consistency', IMMUTABLE, (c) => {
    const from = wholeNumber(c, 'from');
    return consistencyProof(registry, from, wholeNumber(c, 'to'));
  });
  route('/lookup', 'public, max-age=60', (c) => {
    const kind = c.req.query('kind');
    if (!LOOKUP_KINDS.includes(kind as LookupKind)) throw badRequest(`kind: must be one of ${LOOKUP_KINDS.join(', ')}`);
    const id = c.req.query('id') ?? '';
    if (id.length < 1 || id.length > 200) throw badRequest('id: must be 1 to 200 characters');
    return lookupLeaf(registry, kind as LookupKind, id);
  });
}
