// Apps, installations, access tokens and permissions, over real HTTP, including hostile input.
import { createHmac, generateKeyPairSync } from 'node:crypto';
import { Agent, request } from 'node:http';
import { SignJWT } from 'jose';
import { ManualClock } from '@platform/clock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints } from '@shared/registry/endpoints';
import { strict } from '@shared/registry/resources';
import * as ops from '@registry/operations';
import { purgeTokens, TOKEN_RETENTION_MS, INSTALLATION_TOKEN_TTL_MS } from '@registry/auth/tokens';
import {
  appToken,
  createTestApp,
  installationToken,
  rsaKeyPair,
  startTestRegistry,
  type TestApp,
  type TestRegistry,
} from '@test/support/registry';
import { buildFixture, type Fixture } from '@test/support/fixture';
import { expectError } from '@test/support/error-answer';
import { holdThreadPool } from '@test/support/thread-pool-hold';

let t: TestRegistry;
let f: Fixture;
let app: TestApp;
let examinerApp: TestApp;
let installA: string; // app on org A, warehouse WRITE
let installB: string; // app on org B, warehouse VIEW

const b64url = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

beforeAll(async () => {
  t = await startTestRegistry({ setup: (r) => void (f = buildFixture(r)) });
  app = createTestApp(t.registry, { name: 'Desk app' });
  examinerApp = createTestApp(t.registry, { name: 'Examiner app', examinerRead: true, keyIndex: 1 });
  installA = ops.installApp(t.registry, {
    appId: app.id,
    organizationId: f.orgA,
    permissions: { organization_info: 'VIEW', organization_warehouse: 'WRITE' },
  }).id;
  installB = ops.installApp(t.registry, { appId: app.id, organizationId: f.orgB, permissions: { organization_warehouse: 'VIEW' } }).id;
});
afterAll(() => t.close());

const tokenCount = () => (t.registry.db.prepare('SELECT COUNT(*) AS n FROM access_tokens').get() as { n: number }).n;

describe('app tokens and installation tokens', () => {
  it('issues an app token for a valid JWT, in the documented record shape', async () => {
    const res = await t.call('/app/accessTokens', { method: 'POST', token: await app.jwt(), body: '{}' });
    expect(res.status).toBe(200);
    const record = strict.accessToken.parse(await res.json());
    expect(record.appId).toBe(app.id);
    expect(record.token).toMatch(/^rdt_[0-9a-f]{48}$/);
    expect(record.isActive).toBe(true);
    // the token is stored only as a hash
    const stored = t.registry.db.prepare('SELECT * FROM access_tokens WHERE id = ?').get(record.id) as Record<string, unknown>;
    expect(JSON.stringify(stored)).not.toContain(record.token);
  });

  it('issues installation tokens that live 2 hours and carry the permissions', async () => {
    const res = await t.call(`/app/installations/${installA}/accessTokens`, { method: 'POST', token: await app.jwt() });
    const record = strict.accessToken.parse(await res.json());
    expect(Date.parse(record.expiresAt) - Date.parse(record.createdAt)).toBe(INSTALLATION_TOKEN_TTL_MS);
    expect(record.permissions).toEqual({ organization_info: 'VIEW', organization_warehouse: 'WRITE' });
  });

  it("shows the app's examiner grant in its installation tokens' permissions, as in its app tokens", async () => {
    const install = ops.installApp(t.registry, {
      appId: examinerApp.id,
      organizationId: f.orgB,
      permissions: { organization_warehouse: 'VIEW' },
    }).id;
    const res = await t.call(`/app/installations/${install}/accessTokens`, { method: 'POST', token: await examinerApp.jwt() });
    const record = strict.accessToken.parse(await res.json());
    expect(record.permissions).toEqual({ organization_warehouse: 'VIEW', examiner: 'READ' });
    const appRecord = strict.accessToken.parse(
      await (await t.call('/app/accessTokens', { method: 'POST', token: await examinerApp.jwt() })).json(),
    );
    expect(appRecord.permissions).toEqual({ examiner: 'READ' });
    // what the permissions say is what the token may do
    expect((await t.call('/projects/internal?limit=1', { token: record.token })).status).toBe(200);
    ops.removeInstallation(t.registry, { installationId: install });
  });

  it('keeps many live tokens per installation working, and revokes exactly the bearer token', async () => {
    const tokens = await Promise.all(Array.from({ length: 5 }, () => installationToken(t, app, installA)));
    for (const token of tokens) expect((await t.call(`/organizations/${f.orgA}/warehouse/inventory`, { token })).status).not.toBe(401);
    const revoke = await t.call('/app/installations/token', { method: 'DELETE', token: tokens[2] });
    expect(revoke.status).toBe(200);
    await expectError(await t.call(`/organizations/${f.orgA}/warehouse/inventory`, { token: tokens[2] }), 401);
    for (const token of [tokens[0], tokens[1], tokens[3], tokens[4]]) {
      expect((await t.call(`/organizations/${f.orgA}/warehouse/inventory`, { token })).status).not.toBe(401);
    }
  });

  it('expires installation tokens after 2 hours and purges old ones', async () => {
    const token = await installationToken(t, app, installA);
    t.clock.advance(INSTALLATION_TOKEN_TTL_MS + 1000);
    await expectError(await t.call(`/organizations/${f.orgA}/warehouse/inventory`, { token }), 401);
    const before = tokenCount();
    t.clock.advance(TOKEN_RETENTION_MS);
    expect(purgeTokens(t.registry)).toBeGreaterThan(0);
    expect(tokenCount()).toBeLessThan(before);
  });

  it("lists only the app's own installations, page 0 and limit 10 by default", async () => {
    const other = createTestApp(t.registry, { name: 'Other app', keyIndex: 1 });
    const otherInstall = ops.installApp(t.registry, {
      appId: other.id,
      organizationId: f.orgA,
      permissions: { organization_info: 'VIEW' },
    }).id;
    const res = await t.call('/app/installations', { token: await app.jwt() });
    const body = endpoints.listInstallations.response(strict).parse(await res.json()) as {
      pagination: { currentPage: number; total: number };
      installations: { id: string; appId: string }[];
    };
    expect(body.pagination.currentPage).toBe(0);
    expect(body.installations.map((i) => i.id).sort()).toEqual([installA, installB].sort());
    expect(body.installations.every((i) => i.appId === app.id)).toBe(true);
    await expectError(await t.call(`/app/installations/${otherInstall}`, { token: await app.jwt() }), 404);
    const one = await t.call(`/app/installations/${installA}`, { token: await app.jwt() });
    const installation = strict.installation.parse(await one.json());
    expect(installation.organization.id).toBe(f.orgA);
    expect(installation.accessTokensUrl).toBe(`${t.url}/app/installations/${installA}/accessTokens`);
  });
});

describe('hostile and bad credentials (each 401/403, no trace)', () => {
  const now = () => Math.floor(t.clock.now() / 1000);

  async function expectNoTokenIssued(jwt: string | undefined, status = 401, path = '/app/accessTokens') {
    const before = tokenCount();
    const res = await t.call(path, { method: 'POST', body: '{}', ...(jwt !== undefined ? { headers: { authorization: jwt } } : {}) });
    const body = await expectError(res, status);
    expect(tokenCount()).toBe(before);
    return body;
  }

  it('missing header', async () => {
    await expectNoTokenIssued(undefined);
  });

  it('Bearer with garbage, and a non-Bearer scheme', async () => {
    await expectNoTokenIssued('Bearer garbage');
    await expectNoTokenIssued('Bearer');
    await expectNoTokenIssued(`Basic ${Buffer.from('a:b').toString('base64')}`);
  });

  it('a JWT with alg none', async () => {
    const unsigned = `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url({ iss: app.id, iat: now() - 60, exp: now() + 600 })}.`;
    await expectNoTokenIssued(`Bearer ${unsigned}`);
  });

  it('HS256 signed with the public key as the secret', async () => {
    const header = b64url({ alg: 'HS256', typ: 'JWT' });
    const payload = b64url({ iss: app.id, iat: now() - 60, exp: now() + 600 });
    const signature = createHmac('sha256', app.publicKeyPem).update(`${header}.${payload}`).digest('base64url');
    await expectNoTokenIssued(`Bearer ${header}.${payload}.${signature}`);
  });

  it('RS256 signed by another key', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jwt = await new SignJWT({})
      .setProtectedHeader({ alg: 'RS256' })
      .setIssuer(app.id)
      .setIssuedAt(now() - 60)
      .setExpirationTime(now() + 600)
      .sign(privateKey);
    await expectNoTokenIssued(`Bearer ${jwt}`);
  });

  it('expired, issued in the future, or living longer than 10 minutes', async () => {
    await expectNoTokenIssued(`Bearer ${await app.jwt({ iatOffsetS: -1200, lifetimeS: 600 })}`);
    await expectNoTokenIssued(`Bearer ${await app.jwt({ iatOffsetS: 600, lifetimeS: 600 })}`);
    await expectNoTokenIssued(`Bearer ${await app.jwt({ iatOffsetS: 0, lifetimeS: 3600 })}`);
  });

  it('accepts the common client style: iat = now − 60, exp = now + 600, and an alg claim in the payload', async () => {
    const res = await t.call('/app/accessTokens', { method: 'POST', token: await app.jwt({ claims: { alg: 'RS256' } }) });
    expect(res.status).toBe(200);
  });

  it('unknown iss', async () => {
    const jwt = await new SignJWT({})
      .setProtectedHeader({ alg: 'RS256' })
      .setIssuer('00000000-0000-4000-8000-000000000000')
      .setIssuedAt(now() - 60)
      .setExpirationTime(now() + 600)
      .sign(app.privateKey);
    await expectNoTokenIssued(`Bearer ${jwt}`);
  });

  it('an access token used as an app JWT, and a JWT used as an access token', async () => {
    const token = await appToken(t, app);
    await expectNoTokenIssued(`Bearer ${token}`);
    await expectError(await t.call('/carbonCredits/icr/inventory/buffer', { token: await app.jwt() }), 401);
  });

  it('a revoked token', async () => {
    const token = await appToken(t, app);
    expect((await t.call('/app/installations/token', { method: 'DELETE', token })).status).toBe(200);
    await expectError(await t.call('/carbonCredits/icr/inventory/buffer', { token }), 401);
    await expectError(await t.call('/app/installations/token', { method: 'DELETE', token }), 401);
  });

  it("a token of organization A on organization B's warehouse", async () => {
    const token = await installationToken(t, app, installA);
    const body = await expectError(await t.call(`/organizations/${f.orgB}/warehouse/inventory`, { token }), 403);
    expect(String(body.message)).toMatch(/another organization/);
    const before = t.registry.db.prepare('SELECT COUNT(*) AS n FROM reservations').get();
    await expectError(
      await t.call(`/organizations/${f.orgB}/warehouse/inventory/reservations`, {
        method: 'POST',
        token,
        body: JSON.stringify({ creditId: f.creditId, amount: 1 }),
      }),
      403,
    );
    expect(t.registry.db.prepare('SELECT COUNT(*) AS n FROM reservations').get()).toEqual(before);
  });

  it('an app token on warehouse endpoints', async () => {
    const token = await appToken(t, app);
    await expectError(await t.call(`/organizations/${f.orgA}/warehouse/inventory`, { token }), 403);
  });

  it('a VIEW installation cannot write the warehouse', async () => {
    const token = await installationToken(t, app, installB);
    const body = await expectError(
      await t.call(`/organizations/${f.orgB}/warehouse/inventory/reservations`, {
        method: 'POST',
        token,
        body: JSON.stringify({ creditId: f.creditId, amount: 1 }),
      }),
      403,
    );
    expect(body.message).toBe('Missing permission organization_warehouse:write');
  });

  it('an installation without examiner:read on internal projects', async () => {
    const token = await installationToken(t, app, installA);
    await expectError(await t.call('/projects/internal?limit=1&page=0', { token }), 403);
    await expectError(await t.call(`/projects/internal/${f.projectId}`, { token }), 403);
    const examinerToken = await appToken(t, examinerApp);
    expect((await t.call('/projects/internal?limit=1&page=0', { token: examinerToken })).status).not.toBe(403);
  });

  it('a suspended installation: its tokens stop at once, no new ones; resumed, it works again', async () => {
    const token = await installationToken(t, app, installB);
    ops.setInstallationStatus(t.registry, { installationId: installB, status: 'suspended' });
    await expectError(await t.call(`/organizations/${f.orgB}/warehouse/inventory`, { token }), 401);
    await expectNoTokenIssued(`Bearer ${await app.jwt()}`, 403, `/app/installations/${installB}/accessTokens`);
    ops.setInstallationStatus(t.registry, { installationId: installB, status: 'active' });
    const fresh = await installationToken(t, app, installB);
    expect((await t.call(`/organizations/${f.orgB}/warehouse/inventory`, { token: fresh })).status).not.toBe(401);
  });

  it('a removed installation: its tokens stop working', async () => {
    const temp = ops.installApp(t.registry, {
      appId: examinerApp.id,
      organizationId: f.orgC,
      permissions: { organization_warehouse: 'VIEW' },
    }).id;
    const token = await installationToken(t, examinerApp, temp);
    ops.removeInstallation(t.registry, { installationId: temp });
    await expectError(await t.call(`/organizations/${f.orgC}/warehouse/inventory`, { token }), 401);
  });

  it('never echoes a token or JWT back in an error body', async () => {
    const token = await appToken(t, app);
    const revoked = await appToken(t, app);
    await t.call('/app/installations/token', { method: 'DELETE', token: revoked });
    const jwt = await app.jwt();
    for (const [path, bearer] of [
      ['/carbonCredits/icr/inventory/buffer', revoked],
      ['/carbonCredits/icr/inventory/buffer', jwt],
      ['/app/accessTokens', token],
      [`/organizations/${f.orgB}/warehouse/inventory`, token],
    ] as const) {
      const text = await (await t.call(path, { method: path.startsWith('/app') ? 'POST' : 'GET', token: bearer })).text();
      expect(text).not.toContain(bearer);
      expect(text).not.toContain(bearer.slice(-20));
    }
  });
});

describe('operations refuse bad installs with a clear error and change nothing', () => {
  it('unknown permission keys and levels', () => {
    const count = () => t.registry.db.prepare('SELECT COUNT(*) AS n FROM installations').get();
    const before = count();
    expect(() =>
      ops.installApp(t.registry, { appId: app.id, organizationId: f.orgC, permissions: { organization_warehouse: 'ADMIN' } }),
    ).toThrow(/accepts VIEW or WRITE/);
    expect(() => ops.installApp(t.registry, { appId: app.id, organizationId: f.orgC, permissions: { wallet: 'VIEW' } })).toThrow(
      /unknown permission wallet/,
    );
    expect(() => ops.installApp(t.registry, { appId: app.id, organizationId: f.orgA, permissions: {} })).toThrow(/already installed/);
    expect(count()).toEqual(before);
  });

  it('a public key that is not RSA, too short, or not a key', () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const short = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expect(() => ops.createApp(t.registry, { name: 'EC app', publicKeyPem: ec })).toThrow(/must be RSA/);
    expect(() => ops.createApp(t.registry, { name: 'Short app', publicKeyPem: short })).toThrow(/at least 2048/);
    expect(() => ops.createApp(t.registry, { name: 'Junk app', publicKeyPem: 'hello' })).toThrow(/not a PEM public key/);
  });
});

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
