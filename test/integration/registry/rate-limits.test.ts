// The registry's rate limits over real HTTP, each on a registry of its own: an app's request budget
// over all its tokens, the failed-authentication budget per client address, and that budget spent
// before a JWT's signature is checked, under a burst on a busy server.
import { Agent, request } from 'node:http';
import { SignJWT } from 'jose';
import { ManualClock } from '@platform/clock';
import { describe, expect, it } from 'vitest';
import { appToken, createTestApp, rsaKeyPair, startTestRegistry } from '@test/support/registry';
import { buildFixture } from '@test/support/fixture';
import { expectError } from '@test/support/error-answer';
import { holdThreadPool } from '@test/support/thread-pool-hold';

describe('rate limiting', () => {
  it('answers 429 with Retry-After once an app spends its budget, over all its tokens', async () => {
    const limited = await startTestRegistry({ rateLimit: { requests: 6, windowMs: 60_000 }, setup: (r) => void buildFixture(r) });
    try {
      const limitedApp = createTestApp(limited.registry);
      const otherApp = createTestApp(limited.registry, { keyIndex: 1 });
      // minting is the app's too: two of its six requests
      const tokenA = await appToken(limited, limitedApp);
      const tokenB = await appToken(limited, limitedApp);
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) statuses.push((await limited.call('/openapi.json', {})).status); // unauthenticated route: not limited
      const path = '/carbonCredits/icr/inventory/buffer';
      for (const token of [tokenA, tokenB, tokenA, tokenB]) expect((await limited.call(path, { token })).status).toBe(200);
      const last = await limited.call(path, { token: tokenA });
      const body = await expectError(last, 429);
      expect(body.message).toMatch(/this app/);
      expect(Number(last.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      // a fresh token of the same app buys nothing; another app has its own budget
      await expectError(await limited.call(path, { token: tokenB }), 429);
      await expectError(await limited.call('/app/accessTokens', { method: 'POST', token: await limitedApp.jwt(), body: '{}' }), 429);
      expect((await limited.call(path, { token: await appToken(limited, otherApp) })).status).toBe(200);
      limited.clock.advance(60_000);
      expect((await limited.call(path, { token: tokenA })).status).toBe(200);
      expect(statuses.every((s) => s === 200)).toBe(true);
    } finally {
      await limited.close();
    }
  });

  it('limits failed authentication per client address, valid credentials included once it is spent', async () => {
    const limited = await startTestRegistry({ rateLimit: { requests: 3, windowMs: 60_000 }, setup: (r) => void buildFixture(r) });
    try {
      const path = '/carbonCredits/icr/inventory/buffer';
      const token = await appToken(limited, createTestApp(limited.registry));
      // every guess is another unknown token: the per-token limit never saw them
      for (let i = 0; i < 3; i++) await expectError(await limited.call(path, { token: `rdt_guess${i}${'x'.repeat(40)}` }), 401);
      await expectError(await limited.call('/app/accessTokens', { method: 'POST', token: 'eyJhbGciOiJIUzI1NiJ9.e30.x', body: '{}' }), 429);
      const blocked = await limited.call(path, { token });
      const body = await expectError(blocked, 429);
      expect(body.message).toMatch(/failed authentications from this address/);
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      limited.clock.advance(20_000); // one failure's worth refills
      expect((await limited.call(path, { token })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('spends the failed-authentication budget before a JWT signature check: 500 forged JWTs at once get 20 checks', async () => {
    let checks = 0;
    let answered = 0;
    // A busy server: every thread of the pool that checks signatures is held (each blocked opening a
    // FIFO) until each request of the burst is answered or waits for its signature check (or every
    // connection has one waiting), so the burst meets the budget all at once, as a flood on a loaded
    // server does.
    const sockets = 100;
    const pool = holdThreadPool();
    const settled = () => void ((answered + checks === 500 || checks >= sockets) && pool.release());
    const limited = await startTestRegistry({
      rateLimit: { requests: 20, windowMs: 60_000 },
      clock: new ManualClock(Date.parse('2026-11-28T12:00:00Z')), // nothing refills during the burst
      onSignatureCheck: () => void (checks++, settled()),
      setup: (r) => void buildFixture(r),
    });
    try {
      const victim = createTestApp(limited.registry);
      const nowS = Math.floor(limited.clock.now() / 1000);
      // the right iss and claims, the wrong key: only the RSA check itself can refuse it
      const forged = await new SignJWT({})
        .setProtectedHeader({ alg: 'RS256' })
        .setIssuer(victim.id)
        .setIssuedAt(nowS)
        .setExpirationTime(nowS + 300)
        .sign(rsaKeyPair(1).privateKey);
      // 500 at once over 100 kept-alive connections (cheaper than 500 sockets)
      const agent = new Agent({ keepAlive: true, maxSockets: sockets });
      const post = () =>
        new Promise<number>((resolve, reject) => {
          const req = request(`${limited.url}/app/accessTokens`, { method: 'POST', agent, headers: { authorization: `Bearer ${forged}` } });
          req.on('response', (res) =>
            res.resume().on('end', () => {
              answered++;
              settled();
              resolve(res.statusCode!);
            }),
          );
          req.on('error', reject);
          req.end('{}');
        });
      pool.hold();
      const statuses = await Promise.all(Array.from({ length: 500 }, post));
      agent.destroy();
      expect(checks).toBe(20);
      expect(statuses.filter((s) => s === 401)).toHaveLength(20);
      expect(statuses.filter((s) => s === 429)).toHaveLength(480);
      // a valid JWT's check gives its share back: after 15 valid ones, 20 more failures still fit
      limited.clock.advance(60_000);
      const mint = (token: string) => limited.call('/app/accessTokens', { method: 'POST', token, body: '{}' });
      for (let i = 0; i < 15; i++) expect((await mint(await victim.jwt())).status).toBe(200);
      for (let i = 0; i < 20; i++) await expectError(await mint(forged), 401);
      await expectError(await mint(forged), 429);
      expect(checks).toBe(55);
    } finally {
      pool.release();
      await limited.close();
    }
  });
});
