// Test support for the desk's data half: a real registry (fixture data, optionally more projects
// and retirements) on a loopback port, an app with examiner:read installed on organization A with
// warehouse WRITE, and the desk's token manager, client, cache file and sync engine wired to it.
import { join } from 'node:path';
import * as ops from '@registry/operations';
import type { OpenedRegistry } from '@registry/open';
import { createTokenManager, type TokenManager } from '@desk/client/tokens';
import { createRegistryClient, type RegistryClient, type RegistryClientOptions } from '@desk/client/registry-client';
import type { FetchLike } from '@desk/client/http';
import { openDeskCache, type DeskCache } from '@desk/cache';
import type { InstallationRef, SyncTuning } from '@desk/sync/context';
import { createSyncEngine } from '@desk/sync/engine';
import type { SyncEngine } from '@desk/sync/types';
import type { Clock } from '@platform/clock';
import { buildFixture, type Fixture } from './fixture';
import { createTestApp, makeDataDir, startTestRegistry, type TestApp, type TestRegistry } from './registry';
import type { RateLimitOptions } from '@registry/auth/rate-limit';

/** Adds `projects` validated projects of organization A and `retirements` retirements from A's inventory. */
export function addVolume(r: OpenedRegistry, f: Fixture, counts: { projects?: number; retirements?: number }) {
  r.db.transaction(() => {
    for (let i = 0; i < (counts.projects ?? 0); i++) {
      ops.createProject(r, {
        fullName: `${['Coastal', 'Highland', 'Delta', 'Savanna'][i % 4]} Project ${i}`,
        description: `Generated project number ${i} for sync tests.`,
        shortDescription: `Generated ${i}`,
        status: 'validated',
        startDate: '2021-01-01T00:00:00.000Z',
        creditingPeriodStartDate: '2021-06-01T00:00:00.000Z',
        countryCode: i % 2 === 0 ? 'BR' : 'IN',
        sector: { id: 'energy', title: 'Energy' },
        methodology: { id: 'icr-re-002', title: 'Renewable energy' },
        type: { id: 'avoidance', title: 'Avoidance', description: '' },
        organizationId: f.orgA,
        validatorIds: [f.validatorId],
      });
    }
    for (let i = 0; i < (counts.retirements ?? 0); i++) {
      ops.retireFromInventory(r, {
        organizationId: f.orgA,
        creditId: f.creditId,
        amount: 0.001,
        beneficiary: `Beneficiary ${i}`,
        reason: 'Offsetting travel',
      });
    }
  });
}

export interface DeskWorld {
  t: TestRegistry;
  f: Fixture;
  app: TestApp;
  installationId: string;
  installations: InstallationRef[];
  cacheDir: { dir: string; remove(): void };
  cache: DeskCache;
  tokens: TokenManager;
  client: RegistryClient;
  engine: SyncEngine;
  /** Counts requests per path (without query) the desk sent. */
  requests: Map<string, number>;
  close(): Promise<void>;
}

export async function startDeskWorld(
  options: {
    projects?: number;
    retirements?: number;
    examinerRead?: boolean;
    rateLimit?: RateLimitOptions;
    tuning?: Partial<SyncTuning>;
    client?: Partial<RegistryClientOptions>;
    /** The desk's clock; the registry's AdjustableClock when omitted (so both move together). */
    deskClock?: Clock;
    setup?: (r: OpenedRegistry, f: Fixture) => void;
  } = {},
): Promise<DeskWorld> {
  let f!: Fixture;
  let app!: TestApp;
  let installationId = '';
  const t = await startTestRegistry({
    background: false,
    ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
    setup: (r) => {
      f = buildFixture(r);
      addVolume(r, f, options);
      app = createTestApp(r, { name: 'Registry Desk', examinerRead: options.examinerRead ?? true });
      installationId = ops.installApp(r, {
        appId: app.id,
        organizationId: f.orgA,
        permissions: { organization_warehouse: 'WRITE', organization_info: 'VIEW' },
      }).id;
      options.setup?.(r, f);
    },
  });
  const clock = options.deskClock ?? t.clock;
  const requests = new Map<string, number>();
  const countingFetch: FetchLike = (input, init) => {
    const url = urlOf(input);
    requests.set(url.pathname, (requests.get(url.pathname) ?? 0) + 1);
    return fetch(input, init);
  };
  const tokens = createTokenManager({
    baseUrl: t.url,
    appId: app.id,
    loadPrivateKey: async () => app.privateKey,
    clock,
    fetch: countingFetch,
  });
  const client = createRegistryClient({
    baseUrl: t.url,
    tokens,
    clock,
    fetch: countingFetch,
    retry: { baseDelayMs: 20 },
    ...options.client,
  });
  const cacheDir = makeDataDir('desk-cache-');
  const cache = openDeskCache(join(cacheDir.dir, 'cache.sqlite'), { clock });
  const installations: InstallationRef[] = [
    {
      id: installationId,
      organizationId: f.orgA,
      organizationName: 'Alpha Forests Ltd',
      permissions: { organization_warehouse: 'WRITE', organization_info: 'VIEW' },
    },
  ];
  const engine = createSyncEngine({
    client,
    cache,
    clock,
    installations: () => installations,
    ...(options.tuning ? { tuning: options.tuning } : {}),
  });
  return {
    t,
    f,
    app,
    installationId,
    installations,
    cacheDir,
    cache,
    tokens,
    client,
    engine,
    requests,
    async close() {
      await engine.close();
      cache.close();
      cacheDir.remove();
      await t.close().catch(() => {});
    },
  };
}

/** The URL a fetch was asked for, however it was given. */
export const urlOf = (input: Request | string | URL): URL =>
  new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);

/**
 * A client of the world's registry, with its tokens and clock, whose requests go through `send`
 * (given each one's URL): to count, change or answer them.
 */
export function clientThrough(world: DeskWorld, send: (url: URL, init: RequestInit | undefined) => Promise<Response>) {
  return createRegistryClient({
    baseUrl: world.t.url,
    tokens: world.tokens,
    clock: world.t.clock,
    fetch: (input, init) => send(urlOf(input), init),
  });
}
