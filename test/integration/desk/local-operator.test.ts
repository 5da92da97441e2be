// The desk's local administrator of its embedded registry, and the desk's typed client on the
// operator endpoints: a real registry served on loopback, the key in a memory vault (the keychain
// variant is the same KeyVault port, tested in secrets-keychain.test.ts). A fresh memory vault is
// what a restart without a keychain gives the desk.
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnectionKeys } from '@desk/connection-keys';
import { clientFor } from '@desk/connection-runtime';
import { createMemoryVault } from '@desk/key-vault';
import { ensureLocalAdministrator, LOCAL_ADMINISTRATOR_NAME, operatorKeyId } from '@desk/local-operator';
import { createTestApp, startTestRegistry, type TestApp, type TestRegistry } from '@test/support/registry';
import { auditRows } from '@test/support/operators';
import { setOperatorActive, setOperatorKey } from '@registry/operations/operators';

let t: TestRegistry;
let app: TestApp;
beforeAll(async () => {
  t = await startTestRegistry();
  app = createTestApp(t.registry, { name: 'Desk app' });
});
afterAll(() => t.close());

const keyId = operatorKeyId('embedded');

/** The account's row as the registry keeps it. */
const accountOf = (id: string) =>
  t.registry.db.raw.prepare('SELECT name, role, active, public_key_pem FROM operators WHERE id = ?').get(id) as {
    name: string;
    role: string;
    active: number;
    public_key_pem: string;
  };
const spki = async (vault: ReturnType<typeof createMemoryVault>) =>
  createPublicKey(await vault.readPrivateKey(keyId)).export({ type: 'spki', format: 'pem' });
const localAdministrators = () =>
  t.registry.db.raw.prepare('SELECT id, active FROM operators WHERE name = ?').all(LOCAL_ADMINISTRATOR_NAME) as {
    id: string;
    active: number;
  }[];

describe('the local administrator', () => {
  it('is made once, kept while its key is readable, and keeps its account with a new key when the key is gone', async () => {
    const before = localAdministrators().length;
    const vault = createMemoryVault();
    const { id, keyRenewed } = await ensureLocalAdministrator(t.registry, { previousId: undefined, vault, keyId });
    expect(keyRenewed).toBe(false);
    expect(accountOf(id)).toMatchObject({ name: LOCAL_ADMINISTRATOR_NAME, role: 'administrator', active: 1 });
    expect(await vault.readPrivateKey(keyId)).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(auditRows(t.registry).at(-1)).toMatchObject({ action: 'operators.create', outcome: 'succeeded' });
    expect(auditRows(t.registry).at(-1)!.detail).not.toContain('PRIVATE KEY');

    expect(await ensureLocalAdministrator(t.registry, { previousId: id, vault, keyId })).toEqual({ id, keyRenewed: false });

    // Restarts without a keychain: memory is empty each time. The same account, still active, now
    // checked against the key the new store holds; nothing else named like it was made.
    const oldKey = accountOf(id).public_key_pem;
    for (let restart = 0; restart < 2; restart++) {
      const forgetful = createMemoryVault();
      const logs: string[] = [];
      expect(await ensureLocalAdministrator(t.registry, { previousId: id, vault: forgetful, keyId, log: (l) => logs.push(l) })).toEqual({
        id,
        keyRenewed: true,
      });
      expect(logs).toEqual([expect.stringContaining('the same account gets a new key')]);
      expect(accountOf(id).active).toBe(1);
      expect(await spki(forgetful)).toBe(accountOf(id).public_key_pem);
      expect(auditRows(t.registry).at(-1)).toMatchObject({ action: 'operators.setKey', outcome: 'succeeded' });
      expect(auditRows(t.registry).at(-1)!.detail).not.toContain('PRIVATE KEY');
    }
    expect(accountOf(id).public_key_pem).not.toBe(oldKey);
    expect(localAdministrators()).toHaveLength(before + 1);
    expect(
      localAdministrators()
        .filter((a) => a.active === 1)
        .map((a) => a.id),
    ).toContain(id);

    // Another desk's start wrote the shared store's entry with its own key (valid, but not this
    // account's): this account gets a new key too, and it is the one the store holds.
    const clashing = createMemoryVault();
    await clashing.importPrivateKey(
      keyId,
      generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    );
    const logs: string[] = [];
    expect(await ensureLocalAdministrator(t.registry, { previousId: id, vault: clashing, keyId, log: (l) => logs.push(l) })).toEqual({
      id,
      keyRenewed: true,
    });
    expect(logs).toEqual([expect.stringContaining("another account's")]);
    expect(await spki(clashing)).toBe(accountOf(id).public_key_pem);
    expect(await ensureLocalAdministrator(t.registry, { previousId: id, vault: clashing, keyId })).toEqual({ id, keyRenewed: false });
  });

  it('says a key missing from the keychain was left under another data folder, not that no keychain keeps it', async () => {
    // One keychain on this computer (its entries kept as a memory vault keeps them), seen by a data
    // folder and by a copy of it elsewhere: the desk scopes the embedded registry's entries to the folder.
    const keychain = { ...createMemoryVault(), kind: 'keychain' as const };
    const vaultOf = (dataDir: string) =>
      createConnectionKeys({ secretStoreFactory: () => keychain, secretsDir: `${dataDir}/secrets` }).vaultFor('keychain', keyId);
    const original = await vaultOf('/desks/original');
    const { id } = await ensureLocalAdministrator(t.registry, { previousId: undefined, vault: original, keyId });
    const logs: string[] = [];
    const log = (line: string) => logs.push(line);
    expect(await ensureLocalAdministrator(t.registry, { previousId: id, vault: original, keyId, log })).toEqual({ id, keyRenewed: false });
    expect(logs).toEqual([]);

    const copied = await vaultOf('/desks/copied');
    expect(await ensureLocalAdministrator(t.registry, { previousId: id, vault: copied, keyId, log })).toEqual({ id, keyRenewed: true });
    expect(logs).toEqual([expect.stringContaining('is not in the OS keychain under this data folder (the folder was moved or copied')]);
    expect(logs[0]).not.toContain('no OS keychain');
  });

  it('signs nothing with the old key once the new one is set, and its tokens stop at once', async () => {
    const vault = createMemoryVault();
    const { id: operatorId } = await ensureLocalAdministrator(t.registry, { previousId: undefined, vault, keyId });
    const oldPem = await vault.readPrivateKey(keyId);
    const withKey = (pem: string) =>
      clientFor({
        baseUrl: t.url,
        appId: app.id,
        loadPrivateKey: async () => {
          throw new Error('the app key is not needed here');
        },
        operator: { operatorId, loadPrivateKey: async () => pem },
        clock: t.registry.clock,
      });
    const old = withKey(oldPem);
    await old.call('operatorListOperators');
    await ensureLocalAdministrator(t.registry, { previousId: operatorId, vault: createMemoryVault(), keyId });
    await expect(old.call('operatorListOperators')).rejects.toThrow();
    await expect(withKey(oldPem).call('operatorListOperators')).rejects.toThrow();
  });

  it('a disabled local administrator is replaced by a new account, never given a key', async () => {
    const vault = createMemoryVault();
    const { id } = await ensureLocalAdministrator(t.registry, { previousId: undefined, vault, keyId });
    setOperatorActive(t.registry, { operatorId: id, active: false });
    const key = accountOf(id).public_key_pem;
    const next = await ensureLocalAdministrator(t.registry, { previousId: id, vault: createMemoryVault(), keyId });
    expect(next.id).not.toBe(id);
    expect(accountOf(id)).toMatchObject({ active: 0, public_key_pem: key });
    expect(() => setOperatorKey(t.registry, { operatorId: id, publicKeyPem: accountOf(next.id).public_key_pem })).toThrow(/disabled/);
    expect(() => setOperatorKey(t.registry, { operatorId: next.id, publicKeyPem: 'not a key' })).toThrow(/publicKeyPem/);
  });

  it("lets the desk's typed client call the operator endpoints, with an Idempotency-Key on writes", async () => {
    const vault = createMemoryVault();
    const { id: operatorId } = await ensureLocalAdministrator(t.registry, { previousId: undefined, vault, keyId });
    const client = clientFor({
      baseUrl: t.url,
      appId: app.id,
      loadPrivateKey: async () => {
        throw new Error('the app key is not needed here');
      },
      operator: { operatorId, loadPrivateKey: () => vault.readPrivateKey(keyId) },
      clock: t.registry.clock,
    });
    const { operators } = await client.call('operatorListOperators');
    expect(operators.map((o) => o.id)).toContain(operatorId);
    const created = await client.call('operatorCreateOrganization', {
      body: { fullName: 'Made from the desk', countryCode: 'KE', type: 'buyer' },
      idempotencyKey: 'desk-create-1',
    });
    expect(created.organization.fullName).toBe('Made from the desk');
    const again = await client.call('operatorCreateOrganization', {
      body: { fullName: 'Made from the desk', countryCode: 'KE', type: 'buyer' },
      idempotencyKey: 'desk-create-1',
    });
    expect(again.organization.id).toBe(created.organization.id);
    const page = await client.call('operatorSearchAudit', { query: { operatorId, action: 'organizations.create' } });
    expect(page.entries).toHaveLength(1);
  });
});
