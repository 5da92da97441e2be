// The app tokens a desk mints for a remote connection: each is a token row, an audit entry and a
// transparency-log leaf on the registry, so adding a connection, refreshing its installations and
// activating it again must reuse the token its client already holds rather than mint another.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeskEvent } from '@shared/desk/api';
import { createDeskService, type DeskService } from '@desk/service';
import { COMMAND_LINE_CONNECTION_ID } from '@desk/connection-manager';
import type { SecretStoreFactory } from '@desk/key-vault';
import { openSecretStore } from '@desk/secret-stores';
import * as ops from '@registry/operations';
import { createTestApp, makeDataDir, rsaKeyPair, startTestRegistry, type TestApp, type TestRegistry } from '@test/support/registry';
import { deskCalls } from '@test/support/desk-calls';

const noSeed = () => {
  throw new Error('these tests start against a remote registry; the embedded one must not be seeded');
};

/** The real encrypted-file store; no keychain in these tests (the probe says so). */
const secretStoreFactory: SecretStoreFactory = (kind, options) => {
  if (kind !== 'encrypted-file') throw new Error(`unexpected store ${kind}`);
  return openSecretStore(kind, options);
};

const pem = rsaKeyPair(0).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

let registry: TestRegistry;
let app: TestApp;
let data: { dir: string; remove(): void };
let desk: DeskService;
const { ok } = deskCalls(() => desk);

/** The app tokens the registry has issued (installation tokens not counted). */
function appTokens(): number {
  const { db } = registry.registry;
  return db.all(db.q.selectFrom('access_tokens').select('id').where('app_id', '=', app.id).where('installation_id', 'is', null)).length;
}

/** Runs one sync pass of the active connection and waits for its end. */
async function syncOnce(): Promise<void> {
  const ended = new Promise<DeskEvent>((resolve) => {
    const off = desk.onEvent((e) => {
      if (e.type !== 'sync.finished' && e.type !== 'sync.failed') return;
      off();
      resolve(e);
    });
  });
  await ok('sync.run', {});
  expect((await ended).type).toBe('sync.finished');
}

beforeAll(async () => {
  registry = await startTestRegistry({
    setup: (r) => {
      const organizationId = ops.createOrganization(r, { fullName: 'Remote Org', countryCode: 'DE', verified: true }).id;
      app = createTestApp(r, { name: 'Remote desk app', keyIndex: 0 });
      ops.installApp(r, { appId: app.id, organizationId, permissions: { organization_warehouse: 'WRITE' } });
    },
  });
  data = makeDataDir('desk-connection-tokens-');
  desk = await createDeskService({
    dataDir: data.dir,
    host: 'web',
    version: 't',
    seedDemo: noSeed,
    remote: { baseUrl: registry.url, appId: app.id, privateKeyPem: pem },
    secretStoreFactory,
    probeKeychain: async () => ({ available: false, reason: 'no keychain in tests' }),
    autoSync: false,
  });
}, 60_000);

afterAll(async () => {
  await desk?.close();
  data?.remove();
  await registry?.close();
});

describe('a remote connection added to a running desk', () => {
  let added: string;

  it('adding it and its first sync mint one app token: the check and the sync share it', async () => {
    const before = appTokens();
    added = (
      await ok('connections.addRemote', {
        name: 'Second',
        baseUrl: registry.url,
        appId: app.id,
        keyHandle: desk.keyImports.put(pem, 'app-key.pem').handle,
        encryptedFileFallback: { passphrase: 'correct horse battery', userConfirmed: true },
      })
    ).id;
    await ok('connections.activate', { id: added });
    await syncOnce();
    expect(appTokens() - before).toBe(1);
  });

  it('"Refresh installations" while it is not active asks with the token it keeps', async () => {
    await ok('connections.activate', { id: COMMAND_LINE_CONNECTION_ID });
    const before = appTokens();
    await ok('connections.refreshInstallations', { id: added });
    await ok('connections.refreshInstallations', { id: added });
    expect(appTokens() - before).toBe(0);
  });

  it('activated again after switching away, its sync uses the token it keeps', async () => {
    const before = appTokens();
    await ok('connections.activate', { id: added });
    await syncOnce();
    await ok('connections.activate', { id: COMMAND_LINE_CONNECTION_ID });
    await syncOnce();
    expect(appTokens() - before).toBe(0);
  });
});
