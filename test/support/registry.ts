// Test support: a real registry on a real SQLite file in its own temporary folder, served over
// loopback HTTP, with helpers to make apps, sign their JWTs and get tokens. Under
// REGISTRY_TEST_ENGINE=postgres (the `postgres` vitest project) the same registry runs on a
// PostgreSQL database of its own instead (support/postgres.ts), so the same test files cover both.
// The HTTP server (hono, the handlers, certificates with pdfkit, finalize with ethers) and jose are
// imported only when a test starts a server or signs a JWT: most unit tests take only a data folder
// or a key pair from here, and importing the server cost each of them about a second.
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdjustableClock, type Clock } from '@platform/clock';
import type { RegistryServerOptions, RunningRegistryServer } from '@registry/http/server';
import { openPostgresRegistry, openRegistry, type OpenedRegistry } from '@registry/open';
import { createTestDatabase } from './postgres';
import { startFromMigratedTemplate } from './migrated-template';
import { createApp } from '@registry/operations/apps';
import { inject } from 'vitest';

export function makeDataDir(prefix = 'registry-test-'): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface TestRegistry {
  dir: string;
  registry: OpenedRegistry;
  server: RunningRegistryServer;
  url: string;
  clock: AdjustableClock;
  /** fetch against the server with a path. */
  call(path: string, init?: RequestInit & { token?: string }): Promise<Response>;
  close(): Promise<void>;
}

export async function startTestRegistry(
  options: { dataDir?: string; clock?: Clock; setup?: (registry: OpenedRegistry) => void | Promise<void> } & Omit<
    RegistryServerOptions,
    'registry'
  > = {},
): Promise<TestRegistry> {
  const data = options.dataDir ? { dir: options.dataDir, remove: () => {} } : makeDataDir();
  const clock = new AdjustableClock(options.clock);
  const registry = openTestRegistryOn(data, clock);
  await options.setup?.(registry);
  const { startRegistryServer } = await import('@registry/http/server');
  const server = await startRegistryServer({ ...options, registry });
  return {
    dir: data.dir,
    registry,
    server,
    url: server.url,
    clock,
    call(path, init = {}) {
      const { token, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (token) headers.set('authorization', `Bearer ${token}`);
      if (rest.body !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json');
      return fetch(`${server.url}${path}`, { ...rest, headers });
    },
    async close() {
      await server.close();
      registry.close();
      data.remove();
    },
  };
}

/** Whether this run's test registries are on PostgreSQL (the `postgres` vitest project). */
export const ON_POSTGRES = process.env.REGISTRY_TEST_ENGINE === 'postgres';

/**
 * A registry without a server, on the engine of this run: SQLite in the data folder (an empty folder
 * starts from a migrated copy: migrated-template.ts), or (the `postgres` project) a PostgreSQL
 * database of its own that `data.remove()` then also drops.
 */
export function openTestRegistryOn(data: { dir: string; remove(): void }, clock: Clock): OpenedRegistry {
  if (ON_POSTGRES) return openTestPostgresRegistry(clock, data);
  startFromMigratedTemplate(data.dir);
  return openRegistry({ dataDir: data.dir, clock });
}

/** The database of each test registry opened on PostgreSQL (for a second connection to it). */
const postgresUrls = new WeakMap<object, string>();

/**
 * A second connection to a test registry's database, as another process has it (the operator CLI
 * while the server runs): the same SQLite file, or the same PostgreSQL database. Close it after use.
 */
export function openSecondConnection(
  t: Pick<TestRegistry, 'dir' | 'registry' | 'clock'>,
  options: { inspecting?: boolean } = {},
): OpenedRegistry {
  const url = postgresUrls.get(t.registry);
  if (url) return openPostgresRegistry({ databaseUrl: url, clock: t.clock, ...options }) as unknown as OpenedRegistry;
  return openRegistry({ dataDir: t.dir, clock: t.clock, ...options });
}

/**
 * The registry on a new PostgreSQL database, dropped with the data folder. Typed as the SQLite one so
 * that test files run unchanged: their ledger read-outs through `db.raw.prepare(sql)` go to the
 * PostgreSQL engine's `prepare`, which takes the same SQL and answers the same rows.
 */
function openTestPostgresRegistry(clock: Clock, data: { remove(): void }): OpenedRegistry {
  // A copy of the run's migrated template where the project made one (postgres-template.ts).
  const database = createTestDatabase('registry_test', inject('registryPostgresTemplate') || undefined);
  const registry = openPostgresRegistry({ databaseUrl: database.url, clock });
  postgresUrls.set(registry, database.url);
  const db = registry.db;
  Object.defineProperty(db, 'raw', { value: { prepare: (sql: string) => db.prepare(sql) } });
  const remove = data.remove.bind(data);
  data.remove = () => {
    remove();
    database.drop();
  };
  return registry as unknown as OpenedRegistry;
}

export interface TestApp {
  id: string;
  privateKey: KeyObject;
  publicKeyPem: string;
  /** A valid RS256 app JWT; `claims` and `iatOffsetS`/`lifetimeS` let tests break it. */
  jwt(options?: { now?: number; iatOffsetS?: number; lifetimeS?: number; claims?: Record<string, unknown> }): Promise<string>;
}

const keyPairs: { privateKey: KeyObject; publicKeyPem: string }[] = [];
/** RSA keys are slow to make; tests reuse a few. */
export function rsaKeyPair(index = 0): { privateKey: KeyObject; publicKeyPem: string } {
  while (keyPairs.length <= index) {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    keyPairs.push({ privateKey, publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() });
  }
  return keyPairs[index]!;
}

export function createTestApp(
  registry: OpenedRegistry,
  options: { name?: string; examinerRead?: boolean; keyIndex?: number } = {},
): TestApp {
  const keys = rsaKeyPair(options.keyIndex ?? 0);
  const app = createApp(registry, {
    name: options.name ?? `Test app ${registry.newId().slice(0, 8)}`,
    publicKeyPem: keys.publicKeyPem,
    examinerRead: options.examinerRead ?? false,
  });
  return {
    id: app.id,
    privateKey: keys.privateKey,
    publicKeyPem: keys.publicKeyPem,
    async jwt({ now, iatOffsetS = -60, lifetimeS = 660, claims = {} } = {}) {
      const nowS = Math.floor((now ?? registry.clock.now()) / 1000);
      const iat = nowS + iatOffsetS;
      const { SignJWT } = await import('jose');
      return new SignJWT({ ...claims })
        .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
        .setIssuer(app.id)
        .setIssuedAt(iat)
        .setExpirationTime(iat + lifetimeS)
        .sign(keys.privateKey);
    },
  };
}

/** Gets an app token (no installation) over HTTP. */
export async function appToken(t: TestRegistry, app: TestApp): Promise<string> {
  const res = await t.call('/app/accessTokens', { method: 'POST', token: await app.jwt(), body: '{}' });
  if (res.status !== 200) throw new Error(`app token: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

/** Gets an installation token over HTTP. */
export async function installationToken(t: TestRegistry, app: TestApp, installationId: string): Promise<string> {
  const res = await t.call(`/app/installations/${installationId}/accessTokens`, { method: 'POST', token: await app.jwt(), body: '{}' });
  if (res.status !== 200) throw new Error(`installation token: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}
