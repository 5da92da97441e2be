// A read sent with the token's lookup (http/read-along.ts, Authenticator.authenticateWith): the
// warehouse inventory's read goes to the database with the caller's token lookup, one round trip on
// PostgreSQL, and its rows reach the answer only once the caller is authenticated and allowed. Every
// refusal is answered as before, in the same order (the caller before a bad path), every failed
// authentication is counted, and a token revoked elsewhere is refused at the next request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as ops from '@registry/operations';
import { openPostgresRegistry } from '@registry/open';
import { startRegistryServer } from '@registry/http/server';
import { warehouseInventory } from '@registry/warehouse/inventory';
import { hashToken, INSTALLATION_TOKEN_TTL_MS, revokeToken } from '@registry/auth/tokens';
import type { PostgresDatabase } from '@platform/db/postgres';
import {
  appToken,
  createTestApp,
  installationToken,
  ON_POSTGRES,
  openSecondConnection,
  startTestRegistry,
  type TestApp,
  type TestRegistry,
} from '@test/support/registry';
import { buildFixture, type Fixture } from '@test/support/fixture';
import { expectError } from '@test/support/error-answer';
import { startCountingProxy } from '@test/support/counting-proxy';

let t: TestRegistry;
let f: Fixture;
let app: TestApp;
let installA: string; // warehouse VIEW on organization A
let installB: string; // organization_info only, on organization B

beforeAll(async () => {
  t = await startTestRegistry({ setup: (r) => void (f = buildFixture(r)) });
  app = createTestApp(t.registry, { name: 'Desk app' });
  installA = ops.installApp(t.registry, { appId: app.id, organizationId: f.orgA, permissions: { organization_warehouse: 'VIEW' } }).id;
  installB = ops.installApp(t.registry, { appId: app.id, organizationId: f.orgB, permissions: { organization_info: 'VIEW' } }).id;
});
afterAll(() => t.close());

const inventoryOf = (organizationId: string, token: string, query = '') =>
  t.call(`/organizations/${encodeURIComponent(organizationId)}/warehouse/inventory${query}`, { token });

describe("the inventory read under the caller's token", () => {
  it('answers what the inventory holds, as read on its own', async () => {
    const res = await inventoryOf(f.orgA, await installationToken(t, app, installA));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { credits: unknown[]; organizationId: string };
    expect(body.organizationId).toBe(f.orgA);
    expect(body.credits.length).toBeGreaterThan(0);
    expect(body.credits).toEqual(JSON.parse(JSON.stringify(warehouseInventory(t.registry, f.orgA))));
  });

  it('refuses, in the same words, every caller it refused before; no credit is in any refusal', async () => {
    const revoked = await installationToken(t, app, installA);
    expect((await t.call('/app/installations/token', { method: 'DELETE', token: revoked })).status).toBe(200);
    const refusals: [string, string, number, RegExp][] = [
      ['an unknown token', `rdt_${'0'.repeat(48)}`, 401, /^Invalid access token$/],
      ['an app JWT', await app.jwt(), 401, /not an app JWT/],
      ['a revoked token', revoked, 401, /has been revoked/],
      ['an app token', await appToken(t, app), 403, /use an installation access token/],
      ["another organization's token", await installationToken(t, app, installB), 403, /another organization/],
    ];
    for (const [what, token, status, message] of refusals) {
      const res = await inventoryOf(f.orgA, token);
      const text = await res.clone().text();
      const body = await expectError(res, status);
      expect(String(body.message), what).toMatch(message);
      expect(text, what).not.toContain(f.creditId);
    }
    // organization B's installation holds no warehouse permission
    const bToken = await installationToken(t, app, installB);
    expect((await expectError(await inventoryOf(f.orgB, bToken), 403)).message).toBe('Missing permission organization_warehouse:read');
  });

  it('refuses an expired token and a suspended installation at once', async () => {
    const expiring = await installationToken(t, app, installA);
    t.clock.advance(INSTALLATION_TOKEN_TTL_MS + 1000);
    expect((await expectError(await inventoryOf(f.orgA, expiring), 401)).message).toMatch(/has expired/);
    const suspended = await installationToken(t, app, installA);
    ops.setInstallationStatus(t.registry, { installationId: installA, status: 'suspended' });
    try {
      expect((await expectError(await inventoryOf(f.orgA, suspended), 401)).message).toMatch(/suspended/);
    } finally {
      ops.setInstallationStatus(t.registry, { installationId: installA, status: 'active' });
    }
  });

  it('answers a refused caller before a bad path or query, and a bad one of an allowed caller with 400', async () => {
    const tooLong = 'x'.repeat(201);
    await expectError(await inventoryOf(tooLong, `rdt_${'1'.repeat(48)}`), 401);
    const token = await installationToken(t, app, installA);
    // the organization is checked before the path's shape, as on every endpoint acting on one
    await expectError(await inventoryOf(tooLong, token), 403);
    const body = await expectError(await inventoryOf(f.orgA, token, '?development=%00'), 400);
    expect(String(body.message)).toMatch(/^query\.development: must not contain the NUL character/);
  });

  it('refuses at the next request a token revoked through another connection (another process)', async () => {
    const token = await installationToken(t, app, installA);
    expect((await inventoryOf(f.orgA, token)).status).toBe(200);
    const other = openSecondConnection(t);
    try {
      const row = other.db.first(other.db.q.selectFrom('access_tokens').select('id').where('token_hash', '=', hashToken(token)));
      revokeToken(other, row!.id);
    } finally {
      other.close();
    }
    expect((await expectError(await inventoryOf(f.orgA, token), 401)).message).toMatch(/has been revoked/);
  });

  it('counts every failed authentication against the address, and answers 429 once it is spent', async () => {
    let orgA = '';
    const limited = await startTestRegistry({
      rateLimit: { requests: 2, windowMs: 60_000 },
      setup: (r) => void (orgA = buildFixture(r).orgA),
    });
    try {
      const limitedApp = createTestApp(limited.registry);
      const install = ops.installApp(limited.registry, {
        appId: limitedApp.id,
        organizationId: orgA,
        permissions: { organization_warehouse: 'VIEW' },
      });
      const token = await installationToken(limited, limitedApp, install.id);
      const path = `/organizations/${orgA}/warehouse/inventory`;
      for (let i = 0; i < 2; i++) await expectError(await limited.call(path, { token: `rdt_${String(i).repeat(48)}` }), 401);
      expect((await expectError(await limited.call(path, { token }), 429)).message).toMatch(/failed authentications/);
    } finally {
      await limited.close();
    }
  });
});

describe.skipIf(!ON_POSTGRES)('on PostgreSQL', () => {
  it('costs one round trip per read: the token lookup and the inventory go together', async () => {
    const url = new URL((t.registry.db as unknown as PostgresDatabase<unknown>).url);
    const proxy = await startCountingProxy({ host: url.hostname, port: Number(url.port) });
    url.hostname = proxy.host;
    url.port = String(proxy.port);
    const registry = openPostgresRegistry({ databaseUrl: url.toString(), clock: t.clock });
    const server = await startRegistryServer({ registry, background: false });
    try {
      const token = await installationToken(t, app, installA);
      const read = async () => {
        const res = await fetch(`${server.url}/organizations/${f.orgA}/warehouse/inventory`, {
          headers: { authorization: `Bearer ${token}` },
        });
        expect(res.status).toBe(200);
        await res.arrayBuffer();
      };
      // the first reads open the read connection and prepare the statements
      for (let i = 0; i < 3; i++) await read();
      const before = proxy.exchanges();
      for (let i = 0; i < 10; i++) await read();
      expect(proxy.exchanges() - before).toBe(10);
    } finally {
      await server.close();
      registry.close();
      await proxy.close();
    }
  });
});
