// A desk started against a remote test registry (--registry-url), as the connection tests start
// one: no embedded registry (seeding it fails the test), no keychain, and the real encrypted-file
// store for the keys of the connections they add. The registry holds one organization with the
// app installed (warehouse WRITE).
import { afterAll, beforeAll } from 'vitest';
import type { SecretStoreFactory } from '@desk/key-vault';
import { createDeskService, type DeskService } from '@desk/service';
import { openSecretStore } from '@desk/secret-stores';
import * as ops from '@registry/operations';
import { createTestApp, makeDataDir, rsaKeyPair, startTestRegistry, type TestApp, type TestRegistry } from './registry';

export const noSeed = () => {
  throw new Error('these tests start against a remote registry; the embedded one must not be seeded');
};

/** The real encrypted-file store; no keychain in these tests (the probe says so). */
export const secretStoreFactory: SecretStoreFactory = (kind, options) => {
  if (kind !== 'encrypted-file') throw new Error(`unexpected store ${kind}`);
  return openSecretStore(kind, options);
};

export const pemOf = (index: number) => rsaKeyPair(index).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

/** A registry on loopback with "Remote Org" and the app (key 0) installed in it. */
export async function startRemoteRegistry(): Promise<{ registry: TestRegistry; app: TestApp; organizationId: string }> {
  let app: TestApp | undefined;
  let organizationId = '';
  const registry = await startTestRegistry({
    setup: (r) => {
      organizationId = ops.createOrganization(r, { fullName: 'Remote Org', countryCode: 'DE', verified: true }).id;
      app = createTestApp(r, { name: 'Remote desk app', keyIndex: 0 });
      ops.installApp(r, { appId: app.id, organizationId, permissions: { organization_warehouse: 'WRITE' } });
    },
  });
  return { registry, app: app!, organizationId };
}

/** createDeskService's options for a desk started against `registry` as `app` (key 0), no sync of its own. */
export function remoteDeskOptions(dataDir: string, registry: TestRegistry, app: TestApp, log?: (line: string) => void) {
  return {
    dataDir,
    host: 'web' as const,
    version: 't',
    seedDemo: noSeed,
    remote: { baseUrl: registry.url, appId: app.id, privateKeyPem: pemOf(0) },
    secretStoreFactory,
    probeKeychain: async () => ({ available: false, reason: 'no keychain in tests' }),
    autoSync: false,
    ...(log ? { log } : {}),
  };
}

/**
 * Registers the calling file's hooks: a registry (startRemoteRegistry) and a desk started against
 * it before its tests, both closed after them. Its fields are set once the hooks have run.
 */
export function useRemoteDesk(dataDirPrefix: string) {
  const world = {} as { registry: TestRegistry; app: TestApp; desk: DeskService; data: { dir: string; remove(): void } };
  beforeAll(async () => {
    ({ registry: world.registry, app: world.app } = await startRemoteRegistry());
    world.data = makeDataDir(dataDirPrefix);
    world.desk = await createDeskService(remoteDeskOptions(world.data.dir, world.registry, world.app));
  }, 60_000);
  afterAll(async () => {
    await world.desk?.close();
    world.data?.remove();
    await world.registry?.close();
  });
  return world;
}
