// --rate-limit behind a load balancer (issue 32, item 10): every connection comes from the balancer,
// so without trusted proxies one client's failed logins lock out everyone on its address; with the
// balancer listed, X-Forwarded-For names the client and only that client is locked out. A header from
// anyone not listed is ignored.
import { describe, expect, it } from 'vitest';
import { clientAddress, trustedProxies } from '@registry/http/client-address';
import { startTestRegistry } from '@test/support/registry';

const badLogin = (call: (path: string, init: RequestInit & { token?: string }) => Promise<Response>, forwardedFor: string) =>
  call('/operator/v1/me', { token: 'rdo_not-a-token', headers: { 'X-Forwarded-For': forwardedFor } }).then((r) => r.status);

describe('trusted proxies', () => {
  it('locks out only the client X-Forwarded-For names when the balancer is listed', async () => {
    const t = await startTestRegistry({
      rateLimit: { requests: 2, windowMs: 60_000 },
      trustedProxies: ['127.0.0.1', '::1'],
      connectionLimits: { perAddress: 1 },
    });
    try {
      // the balancer carries every client's connections: the per-address cap is not its
      const health = await Promise.all([1, 2, 3].map(() => t.call('/healthz', {}).then((r) => r.status)));
      expect(health).toEqual([200, 200, 200]);
      const one = [await badLogin(t.call, '10.0.0.1'), await badLogin(t.call, '10.0.0.1'), await badLogin(t.call, '10.0.0.1')];
      expect(one).toEqual([401, 401, 429]);
      expect(await badLogin(t.call, '10.0.0.2')).toBe(401);
      // a spoofed hop left of the client is not believed: the rightmost untrusted hop is the client
      expect(await badLogin(t.call, '10.0.0.9, 10.0.0.1')).toBe(429);
    } finally {
      await t.close();
    }
  });

  it('ignores X-Forwarded-For from a peer that is not listed', async () => {
    const t = await startTestRegistry({ rateLimit: { requests: 2, windowMs: 60_000 } });
    try {
      await badLogin(t.call, '10.0.0.1');
      await badLogin(t.call, '10.0.0.1');
      expect(await badLogin(t.call, '10.0.0.2')).toBe(429);
    } finally {
      await t.close();
    }
  });

  it('reads the chain right to left, skipping listed proxies, and trusts no malformed chain', () => {
    const trusted = trustedProxies(['10.1.1.1', '::ffff:10.1.1.2']);
    expect(clientAddress('::ffff:10.1.1.1', '203.0.113.7, 10.1.1.2', trusted)).toBe('203.0.113.7');
    expect(clientAddress('10.1.1.1', 'not-an-ip', trusted)).toBe('10.1.1.1');
    expect(clientAddress('198.51.100.1', '203.0.113.7', trusted)).toBe('198.51.100.1');
    expect(() => trustedProxies(['localhost'])).toThrow(/not an IP address/);
  });
});
