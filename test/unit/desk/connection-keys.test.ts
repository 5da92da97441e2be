// A connection's key status comes from the type of what its vault threw, never from the wording of
// a message: the memory vault and the real encrypted-file vault say why with a KeyReadError; the
// desk's own failures are shown as they are; anything else is 'unreadable' and not quoted.
// Deleting the key of a removed connection never stops the removal: a failure is logged, never
// with the key.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnectionKeys } from '@desk/connection-keys';
import type { StoredConnection } from '@desk/connections';
import { createMemoryVault, KeyReadError, type KeyVault } from '@desk/key-vault';
import { encryptedKeyFile, openSecretStore, PRIVATE_KEY_ACCOUNT } from '@desk/secret-stores';
import { createEncryptedFileStore } from '@desk/secrets';

const PASSPHRASE = 'correct horse battery staple';
let secretsDir: string;
let pem: string;

beforeAll(() => {
  secretsDir = mkdtempSync(join(tmpdir(), 'desk-connection-keys-'));
  pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
});
afterAll(() => rmSync(secretsDir, { recursive: true, force: true }));

function connection(id: string, secretStore: StoredConnection['secretStore']): StoredConnection {
  return { id, name: id, kind: 'remote', baseUrl: 'http://127.0.0.1:9', appId: 'app', secretStore, examinerRead: false, installations: [] };
}

/** A vault of the given kind whose reads and deletions fail with `error` (a store failing in a way of its own). */
function failingVault(kind: KeyVault['kind'], error: Error): KeyVault {
  return {
    kind,
    readPrivateKey: () => Promise.reject(error),
    importPrivateKey: () => Promise.resolve(),
    deletePrivateKey: () => Promise.reject(error),
  };
}

describe('the memory vault', () => {
  it('reading a key it does not hold is a KeyReadError with reason missing', async () => {
    const read = createMemoryVault().readPrivateKey('gone');
    await expect(read).rejects.toBeInstanceOf(KeyReadError);
    await expect(read).rejects.toMatchObject({ reason: 'missing', message: expect.stringMatching(/kept in memory only/) });
  });
});

describe('key status', () => {
  it('a key kept in memory and lost since the last start is missing', async () => {
    const keys = createConnectionKeys({ secretsDir });
    expect(await keys.keyStatus(connection('command-line', 'memory'))).toEqual({
      keyStatus: 'missing',
      // the vault's words, written to follow others, shown as a sentence of their own
      keyMessage: 'The key was kept in memory only and is gone since the desk restarted; re-import it.',
    });
  });

  it('a key in memory is ok, with a note that it lives in memory only', async () => {
    const keys = createConnectionKeys({ secretsDir });
    await keys.memory.importPrivateKey('command-line', pem);
    expect(await keys.keyStatus(connection('command-line', 'memory'))).toEqual({
      keyStatus: 'ok',
      keyMessage: 'The key was read from --key-file and is kept in memory only.',
    });
  });

  it('an encrypted file holding something that is not a private key is invalid (the real store says so by type)', async () => {
    const id = 'damaged';
    const store = await createEncryptedFileStore(encryptedKeyFile(secretsDir, id), PASSPHRASE, {
      userConfirmed: true,
      scryptCost: { N: 2 ** 15, r: 8, p: 1 }, // the lowest a file may hold: a quarter of the desk's work
    });
    await store.set(PRIVATE_KEY_ACCOUNT, 'not a key at all');
    const keys = createConnectionKeys({ secretsDir, secretStoreFactory: openSecretStore });
    keys.keepUnlocked(id, await keys.openEncryptedFile(id, PASSPHRASE));
    expect(await keys.keyStatus(connection(id, 'encrypted-file'))).toMatchObject({
      keyStatus: 'invalid',
      keyMessage: expect.stringMatching(/^The stored private key is not usable/),
    });
  });

  it('a locked encrypted file is unreadable, saying it is locked', async () => {
    const keys = createConnectionKeys({ secretsDir, secretStoreFactory: openSecretStore });
    expect(await keys.keyStatus(connection('locked', 'encrypted-file'))).toEqual({
      keyStatus: 'unreadable',
      keyMessage: expect.stringMatching(/locked: unlock it with its passphrase in Connections\.$/),
    });
  });

  it('a failure that is not a KeyReadError is unreadable whatever its wording, and its message is not passed on', async () => {
    const thrown = new Error(`key not found near ${pem}`);
    const keys = createConnectionKeys({ secretsDir, secretStoreFactory: () => failingVault('keychain', thrown) });
    const status = await keys.keyStatus(connection('odd', 'keychain'));
    expect(status).toEqual({ keyStatus: 'unreadable', keyMessage: 'The key could not be read: its secret store failed unexpectedly.' });
  });

  it("a KeyReadError's reason is the status, whatever its message says", async () => {
    const thrown = new KeyReadError('invalid', 'the keychain entry is missing its last line');
    const keys = createConnectionKeys({ secretsDir, secretStoreFactory: () => failingVault('keychain', thrown) });
    expect(await keys.keyStatus(connection('odd', 'keychain'))).toEqual({
      keyStatus: 'invalid',
      keyMessage: 'The keychain entry is missing its last line.',
    });
  });
});

describe('deleting the key of a removed connection', () => {
  it('deletes it from its store and logs nothing', async () => {
    const id = 'removed';
    const logs: string[] = [];
    const keys = createConnectionKeys({ secretsDir, secretStoreFactory: openSecretStore, log: (line) => logs.push(line) });
    const vault = await keys.openEncryptedFile(id, PASSPHRASE);
    await vault.importPrivateKey(id, pem);
    keys.keepUnlocked(id, vault);
    await keys.deleteKey(connection(id, 'encrypted-file'));
    const reopened = await openSecretStore('encrypted-file', { connectionId: id, directory: secretsDir, passphrase: PASSPHRASE });
    await expect(reopened.readPrivateKey(id)).rejects.toMatchObject({ reason: 'missing' });
    expect(logs).toEqual([]);
  });

  it('a store that refuses is logged, naming the connection and the store, never quoting an untrusted message', async () => {
    const logs: string[] = [];
    const refusal = new Error(`EACCES while deleting ${pem}`);
    const keys = createConnectionKeys({
      secretsDir,
      secretStoreFactory: () => failingVault('keychain', refusal),
      log: (line) => logs.push(line),
    });
    await expect(keys.deleteKey(connection('refused', 'keychain'))).resolves.toBeUndefined();
    expect(logs).toEqual([
      'the key of removed connection refused could not be deleted from its keychain store: the store failed unexpectedly',
    ]);
  });

  it('a locked encrypted file is logged with the reason, and forgotten', async () => {
    const logs: string[] = [];
    const keys = createConnectionKeys({ secretsDir, secretStoreFactory: openSecretStore, log: (line) => logs.push(line) });
    await keys.deleteKey(connection('locked', 'encrypted-file'));
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatch(/^the key of removed connection locked could not be deleted from its encrypted-file store: .*locked/);
  });
});

describe('the keychain entries of the embedded registry', () => {
  /** The OS keychain: one per OS user, shared by every desk data folder (entries by connection id). */
  function sharedKeychain() {
    const entries = new Map<string, string>();
    const vault: KeyVault = {
      kind: 'keychain',
      readPrivateKey: async (id) => {
        const found = entries.get(id);
        if (found === undefined) throw new KeyReadError('missing', 'no such entry');
        return found;
      },
      importPrivateKey: async (id, value) => void entries.set(id, value),
      deletePrivateKey: async (id) => void entries.delete(id),
    };
    return { entries, factory: () => vault };
  }
  const otherPem = () => generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

  it('are kept per data folder, so two folders never overwrite each other; other connections keep their entry', async () => {
    const keychain = sharedKeychain();
    const folderA = createConnectionKeys({ secretStoreFactory: keychain.factory, secretsDir: join(secretsDir, 'a', 'secrets') });
    const folderB = createConnectionKeys({ secretStoreFactory: keychain.factory, secretsDir: join(secretsDir, 'b', 'secrets') });
    const pemB = otherPem();
    for (const [keys, key] of [
      [folderA, pem],
      [folderB, pemB],
    ] as const) {
      await (await keys.vaultFor('keychain', 'embedded')).importPrivateKey('embedded', key);
      await (await keys.vaultFor('keychain', 'embedded--operator')).importPrivateKey('embedded--operator', key);
    }
    expect(await folderA.loaderFor(connection('embedded', 'keychain'))()).toBe(pem);
    expect(await folderB.loaderFor(connection('embedded', 'keychain'))()).toBe(pemB);
    expect(await (await folderA.vaultFor('keychain', 'embedded--operator')).readPrivateKey('embedded--operator')).toBe(pem);
    expect(keychain.entries.size).toBe(4);
    expect([...keychain.entries.keys()].every((id) => /^embedded(--operator)?@[0-9a-f]{12}$/.test(id))).toBe(true);

    // A remote connection's id is random: its entry keeps the name earlier versions gave it.
    await (await folderA.vaultFor('keychain', 'c0ffee00-remote')).importPrivateKey('c0ffee00-remote', pem);
    expect(keychain.entries.get('c0ffee00-remote')).toBe(pem);
  });
});
