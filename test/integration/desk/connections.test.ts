// Connections: the command-line remote (the e2e tests' path), adding a remote registry (key and app
// id proven before anything is stored, the key only in the secret store), activating, re-importing,
// removing; corrupt desk files are clear errors that change nothing.
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGISTRY_URL_RULE, type DeskEvent } from '@shared/desk/api';
import { createDeskService, type DeskService } from '@desk/service';
import { COMMAND_LINE_CONNECTION_ID } from '@desk/connection-manager';
import type { DeskFailure } from '@desk/errors';
import { encryptedKeyFile, openSecretStore } from '@desk/secret-stores';
import { makeDataDir, type TestApp, type TestRegistry } from '@test/support/registry';
import { noSeed, pemOf, remoteDeskOptions, startRemoteRegistry } from '@test/support/remote-desk';
import { deskCalls } from '@test/support/desk-calls';

let registry: TestRegistry;
let app: TestApp;
let organizationId: string;

beforeAll(async () => {
  ({ registry, app, organizationId } = await startRemoteRegistry());
}, 60_000);

afterAll(async () => {
  await registry?.close();
});

describe('corrupt desk files', () => {
  it('a broken connections.json stops the start with a clear error and is left as it was', async () => {
    const data = makeDataDir('desk-corrupt-');
    try {
      const broken = '{ "version": 1, "activeId": 5, "connections": "many" }';
      writeFileSync(join(data.dir, 'connections.json'), broken);
      await expect(createDeskService({ dataDir: data.dir, host: 'web', version: 't', seedDemo: noSeed })).rejects.toThrow(
        /connections\.json is not a valid desk file \(activeId: .*; connections: .*\); fix or delete it/,
      );
      expect(readFileSync(join(data.dir, 'connections.json'), 'utf8')).toBe(broken);
    } finally {
      data.remove();
    }
  });

  it('a settings.json that is not JSON is a clear error too', async () => {
    const data = makeDataDir('desk-corrupt-');
    try {
      mkdirSync(data.dir, { recursive: true });
      writeFileSync(join(data.dir, 'settings.json'), '{"theme": "dark",');
      await expect(createDeskService({ dataDir: data.dir, host: 'web', version: 't', seedDemo: noSeed })).rejects.toThrow(
        /settings\.json is not a valid desk file \(not JSON/,
      );
    } finally {
      data.remove();
    }
  });
});

describe('a desk started with --registry-url', () => {
  let data: { dir: string; remove(): void };
  let desk: DeskService;
  const events: DeskEvent[] = [];
  const logs: string[] = [];

  const { ok, fails } = deskCalls(() => desk);
  /** What a host does when the user picks a key file: the desk keeps it, the page gets the handle. */
  const keyOf = (index: number) => desk.keyImports.put(pemOf(index), 'app-key.pem').handle;
  const options = () => remoteDeskOptions(data.dir, registry, app, (line) => logs.push(line));

  beforeAll(async () => {
    data = makeDataDir('desk-remote-');
    desk = await createDeskService(options());
    desk.onEvent((e) => events.push(e));
  }, 60_000);

  afterAll(async () => {
    await desk?.close();
    data?.remove();
  });

  it('uses the remote registry, with its installations, and no embedded registry', async () => {
    expect(desk.embedded).toBeNull();
    const list = await ok('connections.list', {});
    expect(list.activeId).toBe(COMMAND_LINE_CONNECTION_ID);
    expect(list.keychain).toEqual({ available: false, reason: 'no keychain in tests' });
    const connection = list.connections[0]!;
    expect(connection).toMatchObject({ kind: 'remote', baseUrl: registry.url, appId: app.id, keyStatus: 'ok', secretStore: 'memory' });
    expect(connection.installations).toEqual([
      { id: expect.any(String), organizationId, organizationName: 'Remote Org', permissions: { organization_warehouse: 'WRITE' } },
    ]);
    expect(readFileSync(join(data.dir, 'connections.json'), 'utf8')).not.toContain('PRIVATE KEY');
  });

  it('without a keychain, adding a remote needs the confirmed encrypted-file fallback; nothing is stored before', async () => {
    const before = readFileSync(join(data.dir, 'connections.json'), 'utf8');
    const refused = await fails('connections.addRemote', { name: 'Second', baseUrl: registry.url, appId: app.id, keyHandle: keyOf(0) });
    expect(refused.code).toBe('invalid_input');
    expect(refused.message).toMatch(/keychain/);
    // A file that is not a key is refused when it is picked, without echoing it.
    const notAKey = (() => {
      try {
        desk.keyImports.put(`-----BEGIN PRIVATE KEY-----\n${'A'.repeat(200)}\n-----END PRIVATE KEY-----`, 'app.pem');
      } catch (error) {
        return error as DeskFailure;
      }
      throw new Error('expected a failure');
    })();
    expect(notAKey.code).toBe('invalid_input');
    expect(notAKey.message).not.toContain('AAAA');
    // A handle the desk never gave is refused too.
    const unknown = await fails('connections.addRemote', {
      name: 'Second',
      baseUrl: registry.url,
      appId: app.id,
      keyHandle: 'K'.repeat(24),
      encryptedFileFallback: { passphrase: 'correct horse battery', userConfirmed: true },
    });
    expect(unknown).toMatchObject({ code: 'invalid_input', message: 'The chosen key file is no longer available: choose it again' });
    // The key itself is refused by the contract: only a handle is accepted.
    expect(
      await fails('connections.addRemote', { name: 'Second', baseUrl: registry.url, appId: app.id, privateKeyPem: pemOf(0) }),
    ).toMatchObject({ code: 'invalid_input' });
    expect(readFileSync(join(data.dir, 'connections.json'), 'utf8')).toBe(before);
    expect(existsSync(join(data.dir, 'secrets'))).toBe(false);
  });

  it('a passphrase that is easy to guess is refused before the registry is asked, and nothing is stored', async () => {
    const before = readFileSync(join(data.dir, 'connections.json'), 'utf8');
    const weak = await fails('connections.addRemote', {
      name: 'Second',
      baseUrl: registry.url,
      appId: app.id,
      keyHandle: keyOf(0),
      encryptedFileFallback: { passphrase: 'password1', userConfirmed: true },
    });
    expect(weak.code).toBe('invalid_input');
    expect(weak.message).toMatch(/^This passphrase is too easy to guess/);
    expect(weak.message).not.toContain('password1');
    expect(readFileSync(join(data.dir, 'connections.json'), 'utf8')).toBe(before);
    expect(existsSync(join(data.dir, 'secrets'))).toBe(false);
  });

  it('an http: address to another computer is refused with the rule, before anything is stored or sent', async () => {
    const before = readFileSync(join(data.dir, 'connections.json'), 'utf8');
    const clear = await fails('connections.addRemote', {
      name: 'In clear',
      baseUrl: 'http://registry.example.org',
      appId: app.id,
      keyHandle: keyOf(0),
      encryptedFileFallback: { passphrase: 'correct horse battery', userConfirmed: true },
    });
    expect(clear.code).toBe('invalid_input');
    expect(clear.message).toContain(REGISTRY_URL_RULE);
    expect(readFileSync(join(data.dir, 'connections.json'), 'utf8')).toBe(before);
    expect(existsSync(join(data.dir, 'secrets'))).toBe(false);
  });

  it("a key that is not the app's is refused by the registry and nothing is stored", async () => {
    const before = readFileSync(join(data.dir, 'connections.json'), 'utf8');
    const wrong = await fails('connections.addRemote', {
      name: 'Second',
      baseUrl: registry.url,
      appId: app.id,
      keyHandle: keyOf(1),
      encryptedFileFallback: { passphrase: 'correct horse battery', userConfirmed: true },
    });
    expect(wrong.code).toBe('unauthorized');
    expect(readFileSync(join(data.dir, 'connections.json'), 'utf8')).toBe(before);
    expect(existsSync(join(data.dir, 'secrets'))).toBe(false);
  });

  it('an address that cannot be reached is refused and nothing is stored', async () => {
    const before = readFileSync(join(data.dir, 'connections.json'), 'utf8');
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer();
      probe.listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const nowhere = await fails('connections.addRemote', {
      name: 'Nowhere',
      baseUrl: `http://127.0.0.1:${closed}`,
      appId: app.id,
      keyHandle: keyOf(0),
      encryptedFileFallback: { passphrase: 'correct horse battery', userConfirmed: true },
    });
    expect(nowhere).toMatchObject({
      code: 'offline',
      message: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+ cannot be reached: check the address/),
    });
    expect(readFileSync(join(data.dir, 'connections.json'), 'utf8')).toBe(before);
    expect(existsSync(join(data.dir, 'secrets'))).toBe(false);
  });

  it('adds, activates, re-imports and removes a remote connection', async () => {
    const handle = keyOf(0);
    const added = await ok('connections.addRemote', {
      name: 'Second',
      baseUrl: registry.url,
      appId: app.id,
      keyHandle: handle,
      encryptedFileFallback: { passphrase: 'correct horse battery', userConfirmed: true },
    });
    expect(added).toMatchObject({ name: 'Second', kind: 'remote', secretStore: 'encrypted-file', keyStatus: 'ok' });
    expect(added.installations).toHaveLength(1);
    const keyFile = encryptedKeyFile(join(data.dir, 'secrets'), added.id);
    const onDisk = readFileSync(keyFile, 'utf8');
    expect(onDisk).not.toContain('PRIVATE KEY');
    expect(onDisk).not.toContain(pemOf(0).split('\n')[1]!);
    const file = readFileSync(join(data.dir, 'connections.json'), 'utf8');
    expect(file).not.toContain('PRIVATE KEY');
    expect(file).not.toContain('correct horse');
    expect(events.some((e) => e.type === 'connections.changed')).toBe(true);

    await ok('connections.activate', { id: added.id });
    expect((await ok('connections.list', {})).activeId).toBe(added.id);
    await ok('system.info', {});
    const warehouse = await ok('warehouse.get', { organizationId });
    expect(warehouse).toMatchObject({ organizationName: 'Remote Org', canWrite: true, offline: false });

    expect(await fails('connections.reimportKey', { id: added.id, keyHandle: 'x'.repeat(24) })).toMatchObject({
      code: 'invalid_input',
    });
    // A picked key is used once: stored, its handle is gone.
    expect(await fails('connections.reimportKey', { id: added.id, keyHandle: handle })).toMatchObject({ code: 'invalid_input' });
    expect(await ok('connections.reimportKey', { id: added.id, keyHandle: keyOf(0) })).toMatchObject({ keyStatus: 'ok' });
    expect((await ok('connections.list', {})).connections.find((c) => c.id === added.id)?.keyStatus).toBe('ok');

    // After a restart the key file is locked until the user gives its passphrase.
    await desk.close();
    desk = await createDeskService(options());
    const locked = (await ok('connections.list', {})).connections.find((c) => c.id === added.id);
    expect(locked).toMatchObject({ keyStatus: 'unreadable', keyMessage: expect.stringMatching(/locked/) });
    expect(await fails('connections.unlock', { id: added.id, passphrase: 'wrong passphrase' })).toMatchObject({ code: 'key_unavailable' });
    expect(await ok('connections.unlock', { id: added.id, passphrase: 'correct horse battery' })).toMatchObject({ keyStatus: 'ok' });
    await ok('connections.activate', { id: added.id });
    expect(await ok('warehouse.get', { organizationId })).toMatchObject({ canWrite: true });

    await ok('connections.remove', { id: added.id });
    const reopened = await openSecretStore('encrypted-file', {
      connectionId: added.id,
      directory: join(data.dir, 'secrets'),
      passphrase: 'correct horse battery',
    });
    await expect(reopened.readPrivateKey(added.id)).rejects.toMatchObject({ reason: 'missing' });
    const after = await ok('connections.list', {});
    expect(after.connections.map((c) => c.id)).toEqual([COMMAND_LINE_CONNECTION_ID]);
    expect(after.activeId).toBe(COMMAND_LINE_CONNECTION_ID);
    expect(await fails('connections.remove', { id: 'nope' })).toMatchObject({ code: 'not_found' });
  });

  it('removes a connection whose key file is locked, logging that its key could not be deleted', async () => {
    const passphrase = 'correct horse battery';
    const added = await ok('connections.addRemote', {
      name: 'Locked later',
      baseUrl: registry.url,
      appId: app.id,
      keyHandle: keyOf(0),
      encryptedFileFallback: { passphrase, userConfirmed: true },
    });
    await desk.close();
    desk = await createDeskService(options());

    logs.length = 0;
    await ok('connections.remove', { id: added.id });
    expect((await ok('connections.list', {})).connections.map((c) => c.id)).toEqual([COMMAND_LINE_CONNECTION_ID]);
    expect(logs).toEqual([
      expect.stringMatching(
        new RegExp(`^the key of removed connection ${added.id} could not be deleted from its encrypted-file store: .*locked`),
      ),
    ]);
    for (const line of logs) {
      expect(line).not.toContain(passphrase);
      expect(line).not.toContain(pemOf(0).split('\n')[1]!);
    }
  });
});

describe('a desk started with --registry-url while that registry is down', () => {
  it('starts, answers reads from its (empty) cache marked offline, and refuses writes with offline', async () => {
    const data = makeDataDir('desk-down-');
    const desk = await createDeskService({
      dataDir: data.dir,
      host: 'web',
      version: 't',
      seedDemo: noSeed,
      remote: { baseUrl: 'http://127.0.0.1:9', appId: app.id, privateKeyPem: pemOf(0) },
      autoSync: false,
    });
    try {
      const search = await desk.dispatch('projects.search', {});
      expect(search).toMatchObject({ ok: true, value: { total: 0, rows: [] } });
      const refresh = await desk.dispatch('connections.refreshInstallations', { id: COMMAND_LINE_CONNECTION_ID });
      expect(refresh).toMatchObject({
        ok: false,
        error: {
          code: 'offline',
          message: 'Refreshing the installations needs the registry, which cannot be reached; nothing was changed',
        },
      });
      expect(await desk.dispatch('projects.search', {})).toMatchObject({ ok: true, value: { offline: true } });
    } finally {
      await desk.close();
      data.remove();
    }
  });
});
