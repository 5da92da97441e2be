// importPrivateKey / readPrivateKey over real stores (memory and encrypted file): what the desk
// relies on to offer "re-import the key" instead of crashing.
import { createSign, createVerify, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createEncryptedFileStore,
  createMemoryStore,
  importPrivateKey,
  InvalidPrivateKeyError,
  readPrivateKey,
  type SecretStore,
} from '@desk/secrets';
import { rsaKeyPair } from '@test/support/keyring-scenarios';

const rsa2048 = rsaKeyPair(2048);
const pkcs1Pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();

/** Every 24-character slice of the key body: none may appear in a message. */
function fragmentsOf(pem: string): string[] {
  const body = pem.replace(/-----[^-]+-----|\s/g, '');
  const fragments: string[] = [];
  for (let i = 0; i + 24 <= body.length; i += 24) fragments.push(body.slice(i, i + 24));
  return fragments;
}

function expectNoKeyMaterial(text: string, pem: string): void {
  for (const fragment of fragmentsOf(pem)) expect(text).not.toContain(fragment);
}

async function importError(store: SecretStore, pem: string): Promise<InvalidPrivateKeyError> {
  const error = await importPrivateKey(store, 'app-key', pem).then(
    () => {
      throw new Error('expected the import to be refused');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InvalidPrivateKeyError);
  expectNoKeyMaterial((error as Error).message, pem);
  return error as InvalidPrivateKeyError;
}

describe('importPrivateKey', () => {
  it('stores a valid RSA key as PKCS#8 and returns its public half, which verifies its signatures', async () => {
    const store = createMemoryStore();
    const imported = await importPrivateKey(store, 'app-key', pkcs1Pem);
    expect(imported.modulusLength).toBe(2048);
    const read = await readPrivateKey(store, 'app-key');
    if (!read.ok) throw new Error(read.message);
    expect(read.pem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    const signature = createSign('sha256').update('jwt').sign(read.pem);
    expect(createVerify('sha256').update('jwt').verify(imported.publicKeyPem, signature)).toBe(true);
  });

  it.each([
    ['a public key', rsa2048.publicPem, /This is a public key/],
    [
      'a PKCS#1 public key',
      generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
      /This is a public key/,
    ],
    [
      'a 1024-bit key',
      generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      /has 1024 bits; at least 2048/,
    ],
    [
      'an EC key',
      generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      /The private key is ec; registry apps sign with RSA/,
    ],
    [
      'a passphrase-protected key',
      generateKeyPairSync('rsa', { modulusLength: 2048 })
        .privateKey.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'pw-pw-pw-pw' })
        .toString(),
      /protected by a passphrase/,
    ],
    ['a damaged key', rsa2048.privatePem.replace(/\n[A-Za-z0-9+/]{20}/, '\n'), /could not be decoded/],
    ['garbage', 'hello, I am not a key', /not a PEM private key/],
    ['an empty string', '', /must be PEM text/],
  ])('refuses %s with a clear error and stores nothing', async (_label, pem, message) => {
    const store = createMemoryStore({ 'app-key': 'previous value' });
    const error = await importError(store, pem);
    expect(error.message).toMatch(message);
    expect(await store.get('app-key')).toBe('previous value');
  });
});

describe('readPrivateKey', () => {
  it('reports a missing key', async () => {
    expect(await readPrivateKey(createMemoryStore(), 'app-key')).toEqual({
      ok: false,
      reason: 'missing',
      message: expect.stringMatching(/No private key is stored .* Import the app's private key\./),
    });
  });

  it.each([
    ['garbage', 'S3CRET-garbage-value'],
    ['a public key', rsa2048.publicPem],
    ['a truncated private key', rsa2048.privatePem.slice(0, 400)],
  ])('reports %s in the store as invalid, without quoting it', async (_label, stored) => {
    const result = await readPrivateKey(createMemoryStore({ 'app-key': stored }), 'app-key');
    expect(result).toMatchObject({ ok: false, reason: 'invalid', message: expect.stringMatching(/Re-import the key\.$/) });
    expect(result.ok === false && result.message).not.toContain(stored.slice(0, 24));
    if (stored.includes('BEGIN')) expectNoKeyMaterial((result as { message: string }).message, stored);
  });

  it('reports a store that fails to read (a damaged encrypted file) as unreadable instead of throwing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'desk-pk-'));
    try {
      const file = join(dir, 'c.secrets.json');
      const store = await createEncryptedFileStore(file, 'correct horse battery staple', {
        userConfirmed: true,
        scryptCost: { N: 2 ** 15, r: 8, p: 1 }, // the lowest a file may hold: a quarter of the desk's work
      });
      await importPrivateKey(store, 'app-key', rsa2048.privatePem);
      const json = JSON.parse(readFileSync(file, 'utf8')) as { data: string };
      json.data = `${json.data.slice(0, -8)}AAAAAAA=`;
      writeFileSync(file, JSON.stringify(json));
      const result = await readPrivateKey(store, 'app-key');
      expect(result).toMatchObject({ ok: false, reason: 'unreadable' });
      expect(result.ok === false && result.message).toMatch(/encrypted secrets file: The secrets file .* has been altered or damaged/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('does not repeat the message of a foreign store error, which might carry the secret', async () => {
    const leaky: SecretStore = {
      kind: 'memory',
      get: () => Promise.reject(new Error(`driver exploded while holding ${rsa2048.privatePem}`)),
      set: () => Promise.resolve(),
      delete: () => Promise.resolve(false),
    };
    const result = await readPrivateKey(leaky, 'app-key');
    expect(result).toMatchObject({ ok: false, reason: 'unreadable', message: expect.stringMatching(/an unexpected error occurred/) });
    expectNoKeyMaterial((result as { message: string }).message, rsa2048.privatePem);
  });

  it('returns an unreadable result for an invalid account name rather than throwing', async () => {
    expect(await readPrivateKey(createMemoryStore(), '')).toMatchObject({
      ok: false,
      reason: 'unreadable',
      message: expect.stringMatching(/Invalid account/),
    });
  });
});
