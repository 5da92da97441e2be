// The sync at the demo's --scale 100 (10,000 projects, ~100,000 retirements) from the real registry
// server on a loopback port into an empty cache, through the engine in its worker thread as the desk
// runs it, from the registry's changes feed (the app's feed and the installation's). What the cache holds is checked against what the registry answers over HTTP, read here
// with plain fetch (not the desk's client): every project id of both lists, every credit of the
// three inventories and the warehouse, the retirement count and a spread of retirement pages, and
// sampled project details with their credits. Then a no-change re-sync writes nothing.
// Seeding scale 100 takes ~40 s the first time on a machine; the seeded registry is kept under
// bench/.data (shared with `npm run bench`), each run working on its own copy.
import { generateKeyPairSync } from 'node:crypto';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '@platform/clock';
import { createTokenManager, type TokenManager } from '@desk/client/tokens';
import { openDeskCache, type DeskCache } from '@desk/cache';
import type { SyncEngine, SyncRunResult } from '@desk/sync/types';
import { createWorkerSyncEngine } from '@desk/sync/worker/host';
import { startRegistryServer } from '@registry/http/server';
import { openRegistry, type OpenedRegistry } from '@registry/open';
import * as ops from '@registry/operations';
import { scaledRegistryCopy } from '@bench/support/scaled-registry';
import { makeDataDir } from '@test/support/registry';

const SCALE = 100;
const PAGE = 100;

let copy: Awaited<ReturnType<typeof scaledRegistryCopy>>;
let registry: OpenedRegistry;
let server: Awaited<ReturnType<typeof startRegistryServer>>;
let work: { dir: string; remove(): void };
let tokens: TokenManager;
let cache: DeskCache;
let cacheDb: BetterSqlite3.Database;
let engine: SyncEngine;
let organizationId: string;
let installationId: string;
let first: SyncRunResult;

/** A GET of the registry's HTTP interface with the app's (or the installation's) token. */
async function registryGet<T>(path: string, as: 'app' | 'installation' = 'app'): Promise<T> {
  const token = await tokens.get(as === 'app' ? { kind: 'app' } : { kind: 'installation', installationId });
  const response = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** Every item of a paged list (limit/page), in the registry's order. */
async function allPages<T>(path: string, key: string): Promise<T[]> {
  const items: T[] = [];
  for (let page = 0; ; page++) {
    const answer = await registryGet<Record<string, T[]>>(`${path}?limit=${PAGE}&page=${page}`);
    items.push(...answer[key]!);
    if (answer[key]!.length < PAGE) return items;
  }
}

const cachedIds = (sql: string, ...params: unknown[]) =>
  new Set(
    cacheDb
      .prepare(sql)
      .pluck()
      .all(...params) as string[],
  );

beforeAll(async () => {
  copy = await scaledRegistryCopy(SCALE, () => {});
  registry = openRegistry({ dataDir: copy.dir });
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const app = ops.createApp(registry, {
    name: 'Scale sync test',
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    examinerRead: true,
  });
  const org = registry.db.prepare('SELECT id, full_name FROM organizations WHERE is_verified = 1 ORDER BY id LIMIT 1').get() as {
    id: string;
    full_name: string;
  };
  organizationId = org.id;
  installationId = ops.installApp(registry, { appId: app.id, organizationId: org.id, permissions: { organization_warehouse: 'WRITE' } }).id;
  server = await startRegistryServer({ registry, background: false });
  work = makeDataDir('desk-sync-scale-');
  const privateKeyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  tokens = createTokenManager({ baseUrl: server.url, appId: app.id, loadPrivateKey: async () => privateKeyPem, clock: systemClock });
  const cacheFile = join(work.dir, 'cache.sqlite');
  cache = openDeskCache(cacheFile);
  engine = createWorkerSyncEngine({
    cacheFile,
    baseUrl: server.url,
    tokens,
    cache,
    clock: systemClock,
    installations: () => [
      { id: installationId, organizationId: org.id, organizationName: org.full_name, permissions: { organization_warehouse: 'WRITE' } },
    ],
    // The desk's default: the changes feed, offered by this registry (its figures at this scale are
    // a benchmark, `npm run bench -- sync`). The seed interface, the fallback for registries without
    // the feed, is held to the same cache row for row by sync-feed.test.ts, and at this scale by the bench.
  });
  first = await engine.run();
  cacheDb = new BetterSqlite3(cacheFile, { readonly: true });
}, 900_000);

afterAll(async () => {
  cacheDb?.close();
  await engine?.close();
  cache?.close();
  await server?.close();
  registry?.close();
  copy?.remove();
  work?.remove();
});

describe(`a first sync of a --scale ${SCALE} registry`, () => {
  it('succeeds for every resource', () => {
    expect(first.ok, JSON.stringify(first.results)).toBe(true);
    for (const [resource, result] of Object.entries(first.results)) expect(result.status, resource).toBe('ok');
  });

  it('holds every project of the public and the internal list', async () => {
    const publicIds = (await allPages<{ id: string }>('/projects', 'projects')).map((p) => p.id);
    const internalIds = (await allPages<{ id: string }>('/projects/internal', 'projects')).map((p) => p.id);
    expect(internalIds.length).toBeGreaterThanOrEqual(10_000);
    expect(publicIds.length).toBeGreaterThan(0);
    expect(cachedIds(`SELECT id FROM projects WHERE scope = 'public'`)).toEqual(new Set(publicIds));
    expect(cachedIds(`SELECT id FROM projects WHERE scope = 'internal'`)).toEqual(new Set(internalIds));
    // Every internal project has its details and its credit summary.
    expect(cachedIds('SELECT id FROM project_details')).toEqual(new Set(internalIds));
    expect(cachedIds('SELECT project_id FROM project_credits')).toEqual(new Set(internalIds));
  });

  it('holds sampled project details and credit summaries exactly as the registry answers them', async () => {
    const ids = cacheDb.prepare(`SELECT id FROM projects WHERE scope = 'internal' ORDER BY id`).pluck().all() as string[];
    for (const id of [0, 1, 997, 4_321, ids.length - 1].map((i) => ids[i]!)) {
      const cached = cache.getProject(id)!;
      expect(cached.project, id).toEqual((await registryGet<{ project: unknown }>(`/projects/internal/${id}`)).project);
      expect(cached.credits, id).toEqual(await registryGet(`/carbonCredits/projects/${id}`));
    }
  });

  it('holds every retirement: the count and a spread of pages row for row', async () => {
    const cachedCount = cacheDb.prepare('SELECT count(*) FROM retirements').pluck().get() as number;
    expect(cachedCount).toBeGreaterThanOrEqual(100_000);
    // The registry's last page (newest first) ends exactly where the cached count does.
    const lastPage = Math.floor((cachedCount - 1) / PAGE);
    const last = await registryGet<{ retirements: { id: string }[] }>(`/v1/retirements?limit=${PAGE}&page=${lastPage}`);
    expect(lastPage * PAGE + last.retirements.length).toBe(cachedCount);
    const beyond = await registryGet<{ retirements: unknown[] }>(`/v1/retirements?limit=${PAGE}&page=${lastPage + 1}`);
    expect(beyond.retirements).toEqual([]);
    const json = cacheDb.prepare('SELECT json FROM retirements WHERE id = ?').pluck();
    for (const page of [0, 1, 123, Math.floor(lastPage / 2), lastPage]) {
      const answer = await registryGet<{ retirements: { id: string }[] }>(`/v1/retirements?limit=${PAGE}&page=${page}`);
      for (const retirement of answer.retirements) {
        const cached = json.get(retirement.id) as string | undefined;
        expect(cached, `retirement ${retirement.id} of page ${page}`).toBeDefined();
        expect(JSON.parse(cached!)).toEqual(retirement);
      }
    }
  });

  it('holds every credit of the three inventories and of the warehouse', async () => {
    for (const account of ['buffer', 'adjustment', 'organization'] as const) {
      const answer = await registryGet<{ credits: { id: string }[] }>(`/carbonCredits/icr/inventory/${account}`);
      expect(cachedIds('SELECT id FROM inventory_credits WHERE account = ?', account), account).toEqual(
        new Set(answer.credits.map((c) => c.id)),
      );
    }
    const warehouse = await registryGet<{ credits: unknown[] }>(`/organizations/${organizationId}/warehouse/inventory`, 'installation');
    expect(cache.getWarehouse(organizationId)?.credits).toEqual(warehouse.credits);
  });

  it('answers searches of the synced cache', () => {
    const [project] = cache.searchProjects({ scope: 'internal', limit: 1 }).rows;
    const found = cache.searchProjects({ query: project!.fullName, scope: 'internal', limit: 20 });
    expect(found.rows.map((r) => r.id)).toContain(project!.id);
    const retirement = cacheDb
      .prepare('SELECT id, serialization FROM retirements WHERE serialization IS NOT NULL ORDER BY id LIMIT 1')
      .get() as { id: string; serialization: string };
    const bySerialization = cache.searchRetirements({ query: retirement.serialization, limit: 20 });
    expect(bySerialization.rows.map((r) => r.id)).toContain(retirement.id);
  });

  it('then re-syncs without writing anything when nothing changed', async () => {
    const again = await engine.run();
    expect(again.ok, JSON.stringify(again.results)).toBe(true);
    for (const resource of ['projects', 'internalProjects', 'projectDetails', 'credits', 'retirements', 'organizations'] as const) {
      expect(again.results[resource], resource).toMatchObject({ status: 'ok', written: 0 });
    }
  });
});
