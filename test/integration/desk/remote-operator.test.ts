// A remote registry's operator key, imported like the app key: connections.addRemote takes an
// operator id and a picked key file, proves them against the registry (an operator token) before
// anything is stored, keeps the key like the app key (here the passphrase-encrypted file, one of its
// own beside the app key's), and the desk's client then gets operator tokens for that account. After
// a restart the key is locked with the app key and unlocked with it; removing the connection deletes
// it. A real registry on loopback, the real encrypted-file store.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeskService, type DeskService } from '@desk/service';
import { operatorKeyId } from '@desk/local-operator';
import { encryptedKeyFile, openSecretStore } from '@desk/secret-stores';
import { createTestOperator, type TestOperator } from '@test/support/operators';
import { makeDataDir, type TestApp, type TestRegistry } from '@test/support/registry';
import { pemOf, remoteDeskOptions, startRemoteRegistry } from '@test/support/remote-desk';
import { deskCalls } from '@test/support/desk-calls';

const PASSPHRASE = 'correct horse battery';

let registry: TestRegistry;
let app: TestApp;
let manager: TestOperator;
let data: { dir: string; remove(): void };
let desk: DeskService;
const logs: string[] = [];
const { ok, fails } = deskCalls(() => desk);
const keyOf = (index: number, name = 'key.pem') => desk.keyImports.put(pemOf(index), name).handle;
const options = () => remoteDeskOptions(data.dir, registry, app, (line) => logs.push(line));

beforeAll(async () => {
  ({ registry, app } = await startRemoteRegistry());
  manager = createTestOperator(registry.registry, 'manager', 2);
  data = makeDataDir('desk-remote-operator-');
  desk = await createDeskService(options());
}, 60_000);

afterAll(async () => {
  await desk?.close();
  data?.remove();
  await registry?.close();
});

describe("a remote registry's operator key", () => {
  it('is refused with nothing stored when the registry does not take it', async () => {
    const before = readFileSync(join(data.dir, 'connections.json'), 'utf8');
    const wrongKey = await fails('connections.addRemote', {
      name: 'Back office',
      baseUrl: registry.url,
      appId: app.id,
      keyHandle: keyOf(0),
      operator: { id: manager.id, keyHandle: keyOf(3, 'operator.pem') },
      encryptedFileFallback: { passphrase: PASSPHRASE, userConfirmed: true },
    });
    expect(wrongKey.code).toBe('unauthorized');
    expect(JSON.stringify(wrongKey)).not.toContain(pemOf(3).split('\n')[1]!);
    const notAHandle = await fails('connections.addRemote', {
      name: 'Back office',
      baseUrl: registry.url,
      appId: app.id,
      keyHandle: keyOf(0),
      operator: { id: manager.id, keyHandle: 'x' },
      encryptedFileFallback: { passphrase: PASSPHRASE, userConfirmed: true },
    });
    expect(notAHandle.code).toBe('invalid_input');
    expect(readFileSync(join(data.dir, 'connections.json'), 'utf8')).toBe(before);
  });

  it("is imported with the app key, kept in a file of its own, and the desk's client gets operator tokens with it", async () => {
    const added = await ok('connections.addRemote', {
      name: 'Back office',
      baseUrl: registry.url,
      appId: app.id,
      keyHandle: keyOf(0),
      operator: { id: manager.id, keyHandle: keyOf(2, 'operator.pem') },
      encryptedFileFallback: { passphrase: PASSPHRASE, userConfirmed: true },
    });
    expect(added).toMatchObject({ operatorId: manager.id, secretStore: 'encrypted-file', keyStatus: 'ok' });
    const saved = readFileSync(join(data.dir, 'connections.json'), 'utf8');
    expect(saved).toContain(manager.id);
    expect(saved).not.toContain('PRIVATE KEY');
    const operatorFile = encryptedKeyFile(join(data.dir, 'secrets'), operatorKeyId(added.id));
    expect(existsSync(operatorFile)).toBe(true);
    expect(readFileSync(operatorFile, 'utf8')).not.toContain(pemOf(2).split('\n')[1]!);
    // the app key is still the app key (the operator key did not replace it)
    const appKeyFile = await openSecretStore('encrypted-file', {
      connectionId: added.id,
      directory: join(data.dir, 'secrets'),
      passphrase: PASSPHRASE,
    });
    expect(await appKeyFile.readPrivateKey(added.id)).toBe(pemOf(0));

    await ok('connections.activate', { id: added.id });
    const client = desk.registryClient!;
    const organizations = await client.call('operatorListOrganizations', { query: { limit: 5 } });
    expect(organizations.organizations.map((o) => o.fullName)).toContain('Remote Org');
    // an operator body goes as given: its schema turns dates into epoch ms only to check them
    const created = await client.call('operatorCreateProject', {
      body: {
        fullName: 'Remote draft',
        startDate: '2024-01-01',
        creditingPeriodStartDate: '2024-02-01T00:00:00Z',
        countryCode: 'DE',
        sector: { id: 'forestry', title: 'Forestry' },
        methodology: { id: 'm', title: 'M' },
        type: { id: 'removal', title: 'Removal' },
        organizationId: organizations.organizations.find((o) => o.fullName === 'Remote Org')!.id,
      },
    });
    expect(registry.registry.db.raw.prepare('SELECT start_date FROM projects WHERE id = ?').get(created.id)).toEqual({
      start_date: Date.parse('2024-01-01'),
    });
    const tokenRows = registry.registry.db.raw
      .prepare('SELECT COUNT(*) AS n FROM operator_tokens WHERE operator_id = ?')
      .get(manager.id) as {
      n: number;
    };
    expect(tokenRows.n).toBeGreaterThanOrEqual(1);
  });

  it('is locked after a restart, unlocked with the app key, and deleted with the connection', async () => {
    const id = (await ok('connections.list', {})).connections.find((c) => c.operatorId === manager.id)!.id;
    await desk.close();
    desk = await createDeskService(options());
    await ok('connections.unlock', { id, passphrase: PASSPHRASE });
    await ok('connections.activate', { id });
    const organizations = await desk.registryClient!.call('operatorListOrganizations', { query: { limit: 5 } });
    expect(organizations.organizations.length).toBeGreaterThan(0);

    logs.length = 0;
    await ok('connections.remove', { id });
    const reopened = await openSecretStore('encrypted-file', {
      connectionId: operatorKeyId(id),
      directory: join(data.dir, 'secrets'),
      passphrase: PASSPHRASE,
    });
    await expect(reopened.readPrivateKey(operatorKeyId(id))).rejects.toMatchObject({ reason: 'missing' });
    expect(logs.join('\n')).not.toContain(PASSPHRASE);
  });
});
