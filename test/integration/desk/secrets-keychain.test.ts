// The keychain driver against a real gnome-keyring (Secret Service), and the probe against a
// machine without one and against a D-Bus that never answers.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keytarMissingSentence } from '@desk/secrets/keychain-install.mjs';
import { createKeychainStore, InvalidSecretInputError, KeychainOperationError, probeKeychain, type KeytarApi } from '@desk/secrets';
import { runWithBusAddress, runWithoutKeytar, runWithSecretService } from '@test/support/keyring-session';

describe('keychain store on a real Secret Service', () => {
  it('stores, reads, overwrites and deletes; unknown accounts are null; services are isolated', async () => {
    const r = await runWithSecretService('roundTrip');
    expect(r.kind).toBe('keychain');
    expect(r.unknownBefore).toBeNull();
    expect(r.afterSet).toBe(r.first);
    expect(r.otherServiceSees).toBeNull();
    expect(r.eachSeesOwn).toEqual([r.first, r.second]);
    expect(r.afterOverwrite).toBe(r.second);
    expect(r.deleted).toBe(true);
    expect(r.afterDelete).toBeNull();
    expect(r.deletedAgain).toBe(false);
    expect(r.otherSurvivesDelete).toBe(r.second);
  });

  it('imports a valid RSA key, refuses a public key storing nothing, and reports a garbage entry as invalid', async () => {
    const r = await runWithSecretService('privateKey');
    expect(r.missing).toMatchObject({ ok: false, reason: 'missing' });
    expect(r.imported.modulusLength).toBe(2048);
    expect(r.good).toEqual({ ok: true, pem: r.privatePem });
    expect(r.publicRefused).toMatch(/InvalidPrivateKeyError: This is a public key/);
    expect(r.afterRefusal).toBeNull();
    expect(r.invalid).toMatchObject({ ok: false, reason: 'invalid' });
    expect(r.invalid.ok === false && r.invalid.message).not.toContain(r.garbage);
  });

  it('probe says available', async () => {
    const r = await runWithSecretService('probe');
    expect(r.result).toEqual({ available: true });
  });
});

describe('no Secret Service', () => {
  it('probe reports unavailable in words a user understands, quickly', async () => {
    const r = await runWithBusAddress('unix:path=/nonexistent', 'probe', { timeoutMs: 5_000 });
    expect(r.result.available).toBe(false);
    expect(r.result.available === false && r.result.reason).toMatch(/^No OS keychain is available \(no D-Bus session/);
    expect(r.elapsedMs).toBeLessThan(5_000);
  });

  it('store operations fail with a clear error that never contains the secret; readPrivateKey reports unreadable', async () => {
    const r = await runWithBusAddress('unix:path=/nonexistent', 'unusableKeychain');
    for (const message of [r.setError, r.getError, r.deleteError, r.imported]) {
      expect(message).toMatch(
        /^KeychainOperationError: Could not (store|read|delete) "app-key" in the OS keychain .*No OS keychain is available/,
      );
      expect(message).not.toContain(r.secret);
    }
    expect(r.read).toMatchObject({ ok: false, reason: 'unreadable' });
    expect(r.read.ok === false && r.read.message).toMatch(/No OS keychain is available.*Re-import the key/);
  });
});

describe('keytar cannot be loaded', () => {
  it('probe and store say in one sentence why and what to install, instead of crashing at import', async () => {
    const sentence = keytarMissingSentence(process.platform);
    expect(sentence).toMatch(/^The OS keychain is unavailable because .*libsecret-1-dev.*passphrase-encrypted file\.$/);
    const probe = await runWithoutKeytar('probe');
    expect(probe.result).toEqual({ available: false, reason: sentence });
    const r = await runWithoutKeytar('unusableKeychain');
    expect(r.setError).toBe(`KeychainUnavailableError: ${sentence}`);
    expect(r.read).toMatchObject({ ok: false, reason: 'unreadable', message: expect.stringContaining('libsecret') });
  });
});

describe('a D-Bus that accepts the connection and never answers', () => {
  let dir: string;
  let server: Server;
  const connections: Socket[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'silent-dbus-'));
    server = createServer((socket) => {
      connections.push(socket);
      socket.resume(); // read and ignore everything: the client waits for an answer forever
    });
    await new Promise<void>((resolve) => server.listen(join(dir, 'bus'), resolve));
  });
  afterAll(async () => {
    for (const socket of connections) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('probe gives up after its timeout instead of hanging', async () => {
    const r = await runWithBusAddress(`unix:path=${join(dir, 'bus')}`, 'probe', { timeoutMs: 1_500 });
    expect(connections.length).toBeGreaterThan(0); // the keychain call really reached our silent bus
    expect(r.result).toEqual({ available: false, reason: expect.stringMatching(/did not respond within 1\.5 s/) });
    expect(r.elapsedMs).toBeGreaterThanOrEqual(1_400);
    expect(r.elapsedMs).toBeLessThan(4_000);
  });
});

describe('keychain driver edges (in process)', () => {
  // These feed keytar-shaped failures the real keytar cannot be made to produce on demand; the
  // code under test is the driver's handling, not keytar.
  const failingKeytar = (message: string): KeytarApi => ({
    getPassword: () => Promise.reject(new Error(message)),
    setPassword: () => Promise.reject(new Error(message)),
    deletePassword: () => Promise.reject(new Error(message)),
  });

  it('redacts the secret if the OS error message echoes it', async () => {
    const secret = 'S3CRET-echoed-by-the-os';
    const store = createKeychainStore('registry-desk:edge', { keytar: failingKeytar(`could not save "${secret}"`) });
    const error = await store.set('app-key', secret).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KeychainOperationError);
    expect((error as Error).message).toContain('[redacted]');
    expect((error as Error).message).not.toContain(secret);
  });

  it('explains a missing Secret Service and a hung probe', async () => {
    const store = createKeychainStore('registry-desk:edge', {
      keytar: failingKeytar('The name org.freedesktop.secrets was not provided by any .service files'),
    });
    await expect(store.get('app-key')).rejects.toThrow('No OS keychain is available (no Secret Service running on this Linux session');
    const never = new Promise<never>(() => undefined);
    const hung: KeytarApi = { getPassword: () => never, setPassword: () => never, deletePassword: () => never };
    await expect(probeKeychain({ keytar: hung, timeoutMs: 50 })).resolves.toEqual({
      available: false,
      reason: expect.stringMatching(/did not respond/),
    });
  });

  it('rejects bad service and account names without calling the keychain', async () => {
    let calls = 0;
    const counting: KeytarApi = {
      getPassword: async () => (calls++, null),
      setPassword: async () => void calls++,
      deletePassword: async () => (calls++, false),
    };
    expect(() => createKeychainStore('', { keytar: counting })).toThrow(InvalidSecretInputError);
    const store = createKeychainStore('registry-desk:edge', { keytar: counting });
    await expect(store.get('')).rejects.toThrow('Invalid account: must not be empty.');
    await expect(store.set('a\nb', 'x')).rejects.toThrow('Invalid account: must not contain control characters.');
    await expect(store.set('app-key', '')).rejects.toThrow('Invalid secret: must not be empty.');
    expect(calls).toBe(0);
  });
});
