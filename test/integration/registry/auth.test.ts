// Apps, installations, access tokens and permissions, over real HTTP, including hostile input (the
// rate limits: rate-limits.test.ts).
import { createHmac, generateKeyPairSync } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints } from '@shared/registry/endpoints';
import { strict } from '@shared/registry/resources';
import * as ops from '@registry/operations';
import { purgeTokens, TOKEN_RETENTION_MS, INSTALLATION_TOKEN_TTL_MS } from '@registry/auth/tokens';
import { appToken, createTestApp, installationToken, startTestRegistry, type TestApp, type TestRegistry } from '@test/support/registry';
import { buildFixture, type Fixture } from '@test/support/fixture';
import { expectError } from '@test/support/error-answer';

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
