// Electron's safeStorage as the keychain where keytar cannot load (electron/core/desk/secrets), with
// a stand-in for safeStorage's encryption (AES-256-GCM under a key of its own, as Chromium's OSCrypt
// does with the key it keeps in the OS keychain), and the choice of backend, Linux's plain-text one refused.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chooseKeychainBackend } from '@desk/secrets/keychain-backend';
import { createSafeStorageStore, safeStorageAvailability, type SafeStorageLike } from '@desk/secrets/safe-storage-store';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'safe-storage-'));
  dirs.push(dir);
  return join(dir, 'safe-storage');
};

function standInSafeStorage(backend = 'gnome_libsecret', available = true): SafeStorageLike {
  const key = randomBytes(32);
  return {
    isEncryptionAvailable: () => available,
    getSelectedStorageBackend: () => backend,
    encryptString(text) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
      return Buffer.concat([Buffer.from('v11'), iv, cipher.getAuthTag(), body]);
    },
    decryptString(data) {
      const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(3, 15));
      decipher.setAuthTag(data.subarray(15, 31));
      return Buffer.concat([decipher.update(data.subarray(31)), decipher.final()]).toString('utf8');
    },
  };
}

const unavailableKeytar = async () => ({ available: false as const, reason: 'The OS keychain module (keytar) could not be loaded.' });

describe('the safeStorage store', () => {
  it('keeps each secret encrypted in a file of its own, readable back, mode 0600', async () => {
    const dir = tempDir();
    const store = createSafeStorageStore('registry-desk:c1', { safeStorage: standInSafeStorage(), dir });
    expect(await store.get('app-private-key')).toBeNull();
    await store.set('app-private-key', '-----BEGIN PRIVATE KEY-----\nsecret\n-----END PRIVATE KEY-----\n');
    expect(await store.get('app-private-key')).toContain('secret');
    const [file] = readdirSync(dir);
    expect(readFileSync(join(dir, file!)).toString('latin1')).not.toContain('secret');
    expect(statSync(join(dir, file!)).mode & 0o777).toBe(0o600);
    // Another connection's service does not see it.
    expect(await createSafeStorageStore('registry-desk:c2', { safeStorage: standInSafeStorage(), dir }).get('app-private-key')).toBeNull();
    expect(await store.delete('app-private-key')).toBe(true);
    expect(await store.delete('app-private-key')).toBe(false);
    expect(await store.get('app-private-key')).toBeNull();
  });

  it('says so when the key changed (another machine, a reset keyring), never returning garbage', async () => {
    const dir = tempDir();
    await createSafeStorageStore('registry-desk:c1', { safeStorage: standInSafeStorage(), dir }).set('k', 'value');
    await expect(createSafeStorageStore('registry-desk:c1', { safeStorage: standInSafeStorage(), dir }).get('k')).rejects.toThrow(
      /safeStorage's key has changed or the file is damaged/,
    );
  });

  it("refuses Linux's basic_text backend (a public key, not encryption) and no encryption at all", () => {
    expect(safeStorageAvailability(standInSafeStorage('basic_text'), 'linux')).toMatchObject({
      available: false,
      reason: expect.stringMatching(/basic_text/),
    });
    expect(safeStorageAvailability(standInSafeStorage('unknown'), 'linux')).toMatchObject({ available: false });
    expect(safeStorageAvailability(standInSafeStorage('kwallet5'), 'linux')).toEqual({ available: true, backend: 'kwallet5' });
    expect(safeStorageAvailability(standInSafeStorage('gnome_libsecret', false), 'linux')).toMatchObject({ available: false });
    expect(safeStorageAvailability(standInSafeStorage('basic_text'), 'darwin')).toEqual({ available: true, backend: 'macOS Keychain' });
  });
});

describe('choosing the keychain', () => {
  it('uses keytar when it works', async () => {
    const backend = await chooseKeychainBackend({
      probeKeytar: async () => ({ available: true }),
      safeStorage: standInSafeStorage(),
      platform: 'linux',
      dir: tempDir(),
    });
    expect(backend.name).toBe('keytar');
    expect(backend.availability).toEqual({ available: true, reason: 'Keys are kept in the OS keychain (keytar).' });
  });

  it('uses safeStorage where keytar cannot load, and says why', async () => {
    const dir = tempDir();
    const backend = await chooseKeychainBackend({
      probeKeytar: unavailableKeytar,
      safeStorage: standInSafeStorage(),
      platform: 'linux',
      dir,
    });
    expect(backend.name).toBe('safeStorage');
    expect(backend.availability).toEqual({
      available: true,
      reason:
        'Keys are kept encrypted by Electron safeStorage (gnome_libsecret), because keytar is unavailable: The OS keychain module (keytar) could not be loaded.',
    });
    await backend.store('registry-desk:c1').set('k', 'v');
    expect(readdirSync(dir)).toHaveLength(1);
  });

  it("falls back to passphrase files on Linux's plain-text backend, saying so", async () => {
    const backend = await chooseKeychainBackend({
      probeKeytar: unavailableKeytar,
      safeStorage: standInSafeStorage('basic_text'),
      platform: 'linux',
      dir: tempDir(),
    });
    expect(backend.name).toBe('none');
    expect(backend.availability.available).toBe(false);
    expect(backend.availability.reason).toMatch(
      /keytar\) could not be loaded\. .*basic_text.* Keys are kept in passphrase-encrypted files\.$/,
    );
    expect(() => backend.store('registry-desk:c1')).toThrow(/passphrase-encrypted file/);
  });
});
