// The desk's local administrator of its embedded registry, and the desk's typed client on the
// operator endpoints: a real registry served on loopback, the key in a memory vault (the keychain
// variant is the same KeyVault port, tested in secrets-keychain.test.ts).
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor } from '@desk/connection-runtime';
import { createMemoryVault } from '@desk/key-vault';
import { ensureLocalAdministrator, LOCAL_ADMINISTRATOR_NAME, operatorKeyId } from '@desk/local-operator';
import { createTestApp, startTestRegistry, type TestApp, type TestRegistry } from '@test/support/registry';
import { auditRows } from '@test/support/operators';

let t: TestRegistry;
let app: TestApp;
beforeAll(async () => {
  t = await startTestRegistry();
  app = createTestApp(t.registry, { name: 'Desk app' });
});
afterAll(() => t.close());

const keyId = operatorKeyId('embedded');

describe('the local administrator', () => {
  it('is made once, kept while its key is readable, and replaced (the old one disabled) when the key is gone', async () => {
    const vault = createMemoryVault();
    const id = await ensureLocalAdministrator(t.registry, { previousId: undefined, vault, keyId });
    expect(t.registry.db.raw.prepare('SELECT name, role, active FROM operators WHERE id = ?').get(id)).toEqual({
      name: LOCAL_ADMINISTRATOR_NAME,
      role: 'administrator',
      active: 1,
    });
    expect(await vault.readPrivateKey(keyId)).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(auditRows(t.registry).at(-1)).toMatchObject({ action: 'operators.create', outcome: 'succeeded' });
    expect(auditRows(t.registry).at(-1)!.detail).not.toContain('PRIVATE KEY');

    expect(await ensureLocalAdministrator(t.registry, { previousId: id, vault, keyId })).toBe(id);

    const forgetful = createMemoryVault();
    const replacement = await ensureLocalAdministrator(t.registry, { previousId: id, vault: forgetful, keyId });
    expect(replacement).not.toBe(id);
    expect(t.registry.db.raw.prepare('SELECT active FROM operators WHERE id = ?').get(id)).toEqual({ active: 0 });

    // Another desk's start replaced the key in the shared store with its own (valid, but not this
    // account's): the account is replaced too, and the new one's key is the one the store holds.
    const logs: string[] = [];
    await forgetful.importPrivateKey(
      keyId,
      generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    );
    const afterClash = await ensureLocalAdministrator(t.registry, {
      previousId: replacement,
      vault: forgetful,
      keyId,
      log: (l) => logs.push(l),
    });
    expect(afterClash).not.toBe(replacement);
    expect(logs).toEqual([expect.stringContaining("another account's")]);
    expect(t.registry.db.raw.prepare('SELECT active FROM operators WHERE id = ?').get(replacement)).toEqual({ active: 0 });
    const stored = t.registry.db.raw.prepare('SELECT public_key_pem FROM operators WHERE id = ?').get(afterClash) as {
      public_key_pem: string;
    };
    expect(createPublicKey(await forgetful.readPrivateKey(keyId)).export({ type: 'spki', format: 'pem' })).toBe(stored.public_key_pem);
    expect(await ensureLocalAdministrator(t.registry, { previousId: afterClash, vault: forgetful, keyId })).toBe(afterClash);
  });

  it("lets the desk's typed client call the operator endpoints, with an Idempotency-Key on writes", async () => {
    const vault = createMemoryVault();
    const operatorId = await ensureLocalAdministrator(t.registry, { previousId: undefined, vault, keyId });
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
