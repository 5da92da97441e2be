// The passphrase-encrypted fallback store, on real files in a temp directory.
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createEncryptedFileStore,
  InvalidSecretInputError,
  SecretFileTamperedError,
  SecretFileUnreadableError,
  WrongPassphraseError,
  type EncryptedFileStoreOptions,
} from '@desk/secrets';
import { deriveKeys, encryptSecrets, newKdfParams } from '@desk/secrets/encrypted-file-format';
import { passphraseWeakness } from '@desk/secrets/passphrase-strength';
import {
  AS_THE_DESK,
  CONFIRMED,
  encodingsOf,
  PASSPHRASE,
  secretWatch,
  storedFields,
  useFolderPerTest,
  usePermissiveUmask,
} from '@test/support/secrets-file-world';

// Every error message a test saw; the last test (tests in a file run in order) checks them all.
const { seenMessages, secretsUsed, failure, marker } = secretWatch();
const paths = useFolderPerTest();
let dir: string;
let file: string;
beforeEach(() => void ({ dir, file } = paths));

describe('creation', () => {
  it('requires the user confirmation flag and creates nothing without it', async () => {
    for (const options of [undefined, {}, { userConfirmed: false }, { userConfirmed: 'yes' }]) {
      const error = await failure(() => createEncryptedFileStore(file, PASSPHRASE, options as unknown as EncryptedFileStoreOptions));
      expect(error).toBeInstanceOf(InvalidSecretInputError);
      expect(error.message).toMatch(/explicit confirmation \(\{ userConfirmed: true \}\)/);
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses a scrypt cost a file may not hold, and creates nothing', async () => {
    for (const scryptCost of [
      { N: 2 ** 14, r: 8, p: 1 },
      { N: 2 ** 15, r: 4, p: 1 },
      { N: 3 * 2 ** 14, r: 8, p: 1 },
      { N: 2 ** 21, r: 8, p: 1 },
    ]) {
      const error = await failure(() => createEncryptedFileStore(file, PASSPHRASE, { userConfirmed: true, scryptCost }));
      expect(error).toBeInstanceOf(InvalidSecretInputError);
      expect(error.message).toMatch(/scrypt cost a secrets file may not hold/);
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses a relative path and a short passphrase, without echoing it', async () => {
    expect(await failure(() => createEncryptedFileStore('secrets.json', PASSPHRASE, CONFIRMED))).toBeInstanceOf(InvalidSecretInputError);
    const error = await failure(() => createEncryptedFileStore(file, 'hunter2', CONFIRMED));
    expect(error.message).toBe('Invalid passphrase: must be at least 8 characters.');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('does not write a file until the first secret is stored', async () => {
    const store = await createEncryptedFileStore(file, PASSPHRASE, CONFIRMED);
    expect(store.kind).toBe('encrypted-file');
    expect(await store.get('app-key')).toBeNull();
    expect(existsSync(file)).toBe(false);
  });
});

describe('passphrase strength and KDF upgrades', () => {
  it('refuses an easy-to-guess passphrase for a new file, saying why without echoing it; creates nothing', async () => {
    for (const weak of ['password1', 'abcdefgh', 'qwertyuiop', 'registrydesk']) {
      secretsUsed.push(weak);
      const error = await failure(() => createEncryptedFileStore(file, weak, CONFIRMED));
      expect(error).toBeInstanceOf(InvalidSecretInputError);
      expect(error.message).toMatch(/^This passphrase is too easy to guess.*Use a longer one, for example four or more unrelated words\.$/);
      expect(error.message).not.toContain(weak);
    }
    expect(readdirSync(dir)).toEqual([]);
    expect(passphraseWeakness(PASSPHRASE)).toBeUndefined();
    expect(passphraseWeakness('k8#Lq!2vZp-7')).toBeUndefined();
  });

  it('opens a file written with N = 2^15 and a weak passphrase by an earlier desk, and upgrades it on the next write', async () => {
    const old = 'password1';
    secretsUsed.push(old);
    const oldKdf = { ...newKdfParams(), N: 2 ** 15 };
    const first = marker();
    writeFileSync(file, encryptSecrets({ secrets: { 'app-key': first } }, await deriveKeys(old, oldKdf)));

    const store = await createEncryptedFileStore(file, old, AS_THE_DESK);
    expect(await store.get('app-key')).toBe(first);
    expect(storedFields(readFileSync(file, 'utf8')).kdf).toEqual(oldKdf); // reading changes nothing

    const second = marker();
    await store.set('other', second);
    const upgraded = storedFields(readFileSync(file, 'utf8')).kdf;
    expect(upgraded).toMatchObject({ name: 'scrypt', N: 2 ** 17, r: 8, p: 1 });
    expect(upgraded.salt).not.toBe(oldKdf.salt);

    const reopened = await createEncryptedFileStore(file, old, AS_THE_DESK);
    expect(await reopened.get('app-key')).toBe(first);
    expect(await reopened.get('other')).toBe(second);
    await reopened.set('other', marker());
    expect(storedFields(readFileSync(file, 'utf8')).kdf.salt).toBe(upgraded.salt); // upgraded once, then kept
  });
});

describe('round trip', () => {
  it('stores, reads, overwrites and deletes; another store with the passphrase reads the same', async () => {
    const first = marker();
    const second = marker();
    const store = await createEncryptedFileStore(file, PASSPHRASE, CONFIRMED);
    await store.set('app-key', first);
    await store.set('other', second);
    expect(await store.get('app-key')).toBe(first);
    await store.set('app-key', second);
    expect(await store.get('app-key')).toBe(second);

    const reopened = await createEncryptedFileStore(file, PASSPHRASE, CONFIRMED);
    expect(await reopened.get('app-key')).toBe(second);
    expect(await reopened.get('other')).toBe(second);
    expect(await reopened.get('unknown')).toBeNull();

    expect(await reopened.delete('app-key')).toBe(true);
    expect(await reopened.delete('app-key')).toBe(false);
    expect(await store.get('app-key')).toBeNull(); // the first store re-reads the file
    expect(await store.get('other')).toBe(second);
  });

  it('writes the versioned format: scrypt N = 2^17, r=8, p=1, 16-byte salt kept per file, fresh 12-byte IV per write', async () => {
    const store = await createEncryptedFileStore(file, PASSPHRASE, AS_THE_DESK);
    await store.set('app-key', marker());
    const before = storedFields(readFileSync(file, 'utf8'));
    await store.set('app-key', marker());
    const after = storedFields(readFileSync(file, 'utf8'));
    expect(Object.keys(after).sort()).toEqual(['check', 'data', 'iv', 'kdf', 'tag', 'v']);
    expect(after.v).toBe(1);
    expect(after.kdf).toMatchObject({ name: 'scrypt', r: 8, p: 1 });
    expect(after.kdf.N).toBe(2 ** 17);
    expect(Buffer.from(after.kdf.salt, 'base64')).toHaveLength(16);
    expect(Buffer.from(after.iv, 'base64')).toHaveLength(12);
    expect(Buffer.from(after.tag, 'base64')).toHaveLength(16);
    expect(after.kdf.salt).toBe(before.kdf.salt);
    expect(after.iv).not.toBe(before.iv);
    // A different file gets a different salt.
    const otherFile = join(dir, 'other.secrets.json');
    await (await createEncryptedFileStore(otherFile, PASSPHRASE, CONFIRMED)).set('app-key', marker());
    expect(storedFields(readFileSync(otherFile, 'utf8')).kdf.salt).not.toBe(after.kdf.salt);
  });

  it('keeps every update when sets run concurrently', async () => {
    const store = await createEncryptedFileStore(file, PASSPHRASE, CONFIRMED);
    const values = Array.from({ length: 6 }, () => marker());
    await Promise.all(values.map((value, i) => store.set(`account-${i}`, value)));
    const reopened = await createEncryptedFileStore(file, PASSPHRASE, CONFIRMED);
    expect(await Promise.all(values.map((_, i) => reopened.get(`account-${i}`)))).toEqual(values);
  });
});

describe('nothing secret on disk', () => {
  it('the file holds neither the secret nor the passphrase, in any encoding we would write', async () => {
    const secret = marker();
    const store = await createEncryptedFileStore(file, PASSPHRASE, CONFIRMED);
    await store.set('app-key', secret);
    await store.set('app-key-2', secret);
    await store.delete('app-key-2');
    for (const name of readdirSync(dir)) {
      const bytes = readFileSync(join(dir, name));
      for (const needle of [secret, PASSPHRASE]) {
        const forms = encodingsOf(needle);
        for (const form of forms) expect(bytes.includes(form)).toBe(false);
      }
    }
    expect(readdirSync(dir)).toEqual(['connection.secrets.json']); // no temp file left behind
  });
});

describe('file permissions and atomic replace', () => {
  usePermissiveUmask(); // which must not widen the file's mode

  it('creates the file with mode 0600 and keeps 0600 when replacing a file someone widened', async () => {
    const store = await createEncryptedFileStore(file, PASSPHRASE, CONFIRMED);
    await store.set('app-key', marker());
    expect(statSync(file).mode & 0o777).toBe(0o600);
    chmodSync(file, 0o644);
    await store.set('app-key', marker());
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('replaces the file by rename (new inode), so a reader never sees a partial file', async () => {
    const writer = await createEncryptedFileStore(file, PASSPHRASE, CONFIRMED);
    const big = (i: number) => `${i}:${'k'.repeat(60_000)}`;
    await writer.set('app-key', big(0));
    const inodeBefore = statSync(file).ino;
    await writer.set('app-key', big(1));
    expect(statSync(file).ino).not.toBe(inodeBefore);

    const reader = await createEncryptedFileStore(file, PASSPHRASE, CONFIRMED);
    let writing = true;
    let reads = 0;
    const readerLoop = (async () => {
      while (writing) {
        const value = await reader.get('app-key'); // throws on a partial or mixed file
        expect(value).toMatch(/^\d+:k{60000}$/);
        reads++;
      }
    })();
    // Settle it now so a failing reader is reported by the assertion below, not as unhandled.
    const readerFailure = readerLoop.then(
      () => null,
      (error: unknown) => error,
    );
    for (let i = 2; i < 40; i++) await writer.set('app-key', big(i));
    writing = false;
    expect(await readerFailure).toBeNull();
    expect(reads).toBeGreaterThan(5);
    expect(await reader.get('app-key')).toBe(big(39));
  });
});

describe('wrong passphrase and tampering', () => {
  async function storedFile(): Promise<{ secret: string; original: Buffer }> {
    const secret = marker();
    const store = await createEncryptedFileStore(file, PASSPHRASE, CONFIRMED);
    await store.set('app-key', secret);
    return { secret, original: readFileSync(file) };
  }

  it('a wrong passphrase is a WrongPassphraseError at open, and the file is unchanged', async () => {
    const { original } = await storedFile();
    const wrong = 'not the passphrase at all';
    secretsUsed.push(wrong);
    const error = await failure(() => createEncryptedFileStore(file, wrong, CONFIRMED));
    expect(error).toBeInstanceOf(WrongPassphraseError);
    expect(error.message).toBe(`The passphrase does not unlock the secrets file ${file}.`);
    expect(readFileSync(file).equals(original)).toBe(true);
  });

  it.each([
    ['ciphertext', 'data'],
    ['authentication tag', 'tag'],
    ['IV', 'iv'],
  ] as const)('a flipped bit in the %s is a SecretFileTamperedError, for reads and writes', async (_label, field) => {
    const { original } = await storedFile();
    const store = await createEncryptedFileStore(file, PASSPHRASE, CONFIRMED);
    const json = storedFields(original.toString('utf8'));
    const bytes = Buffer.from(json[field], 'base64');
    bytes[0] = bytes[0]! ^ 0x01;
    json[field] = bytes.toString('base64');
    writeFileSync(file, JSON.stringify(json));
    const tampered = readFileSync(file);
    const readError = await failure(() => store.get('app-key'));
    expect(readError).toBeInstanceOf(SecretFileTamperedError);
    expect(readError.message).toMatch(/has been altered or damaged \(the encrypted content failed authentication\)/);
    // A write must not paper over the damage with a fresh file.
    expect(await failure(() => store.set('app-key', marker()))).toBeInstanceOf(SecretFileTamperedError);
    expect(readFileSync(file).equals(tampered)).toBe(true);
  });

  it('a truncated or non-JSON file is reported as damaged, a future version as unsupported', async () => {
    const { original } = await storedFile();
    writeFileSync(file, original.subarray(0, original.length / 2));
    expect(await failure(() => createEncryptedFileStore(file, PASSPHRASE, CONFIRMED))).toBeInstanceOf(SecretFileTamperedError);
    writeFileSync(file, JSON.stringify({ ...storedFields(original.toString('utf8')), v: 2 }));
    const future = await failure(() => createEncryptedFileStore(file, PASSPHRASE, CONFIRMED));
    expect(future).toBeInstanceOf(SecretFileUnreadableError);
    expect(future.message).toMatch(/format version 2/);
  });

  it('refuses scrypt parameters weaker than N=2^15 (a downgraded file)', async () => {
    const { original } = await storedFile();
    const json = storedFields(original.toString('utf8'));
    writeFileSync(file, JSON.stringify({ ...json, kdf: { ...json.kdf, N: 2 ** 10 } }));
    const error = await failure(() => createEncryptedFileStore(file, PASSPHRASE, CONFIRMED));
    expect(error).toBeInstanceOf(SecretFileTamperedError);
    expect(error.message).toMatch(/invalid fields: kdf\.N/);
  });

  it('a path that is a directory is unreadable, with a clear error', async () => {
    mkdirSync(file);
    const error = await failure(() => createEncryptedFileStore(file, PASSPHRASE, CONFIRMED));
    expect(error).toBeInstanceOf(SecretFileUnreadableError);
    expect(error.message).toMatch(/Could not read the secrets file .*EISDIR/);
  });
});

describe('bad input changes nothing', () => {
  it('invalid accounts and oversize secrets are refused and the file stays byte-identical', async () => {
    const store = await createEncryptedFileStore(file, PASSPHRASE, CONFIRMED);
    await store.set('app-key', marker());
    const before = readFileSync(file);
    const tooBig = 'z'.repeat(64 * 1024 + 1);
    const errors = [
      await failure(() => store.set('', marker())),
      await failure(() => store.set('bad\u0000name', marker())),
      await failure(() => store.set('app-key', '')),
      await failure(() => store.set('app-key', tooBig)),
      await failure(() => store.set('app-key', 42 as unknown as string)),
      await failure(() => store.delete('')),
    ];
    for (const error of errors) expect(error).toBeInstanceOf(InvalidSecretInputError);
    expect(errors[3]!.message).toBe('Invalid secret: must be at most 65536 characters.');
    expect(readFileSync(file).equals(before)).toBe(true);
  });
});

describe('no secret in any message', () => {
  it('none of the errors above, nor anything logged, contains a secret or a passphrase', async () => {
    const logged: string[] = [];
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((method) =>
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' '))),
    );
    try {
      const secret = marker();
      const store = await createEncryptedFileStore(file, PASSPHRASE, CONFIRMED);
      await store.set('app-key', secret);
      const wrong = `${PASSPHRASE}!`;
      secretsUsed.push(wrong);
      await failure(() => createEncryptedFileStore(file, wrong, CONFIRMED));
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    expect(seenMessages.length).toBeGreaterThan(20);
    for (const text of [...seenMessages, ...logged]) {
      for (const secret of secretsUsed) expect(text).not.toContain(secret);
    }
  });
});
