// What the encrypted secrets file's tests (test/unit/desk/secrets-encrypted-file.test.ts) share: the
// options the desk passes, the stored file's fields as they read them back, a fresh folder per test,
// a permissive umask, the encodings a secret could be found in on disk, and a watch that keeps every
// error message and every secret used, so that the file's last test can check that no message ever
// held a secret.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { EncryptedFileStoreOptions } from '@desk/secrets';
import { leakMarker } from '@test/support/keyring-scenarios';

// What the desk passes: new files get the production cost (N = 2^17). The two tests of that cost
// use it; the rest write at the lowest cost a file may hold (N = 2^15), a quarter of the work.
export const AS_THE_DESK: EncryptedFileStoreOptions = { userConfirmed: true };
export const CONFIRMED: EncryptedFileStoreOptions = { userConfirmed: true, scryptCost: { N: 2 ** 15, r: 8, p: 1 } };
export const PASSPHRASE = 'correct horse battery staple';

/** The stored file's fields as these tests read them back (the format module keeps its schema to itself). */
export interface StoredFile {
  v: number;
  kdf: { name: string; N: number; r: number; p: number; salt: string };
  check: string;
  iv: string;
  tag: string;
  data: string;
}
export const storedFields = (text: string) => JSON.parse(text) as StoredFile;

/**
 * A folder per test under one temporary root (removed after the file), and the secrets file's path
 * in it; both are set before each test.
 */
export function useFolderPerTest(): { dir: string; file: string } {
  const paths = { dir: '', file: '' };
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'desk-secrets-'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  beforeEach((context) => {
    paths.dir = join(root, context.task.id);
    mkdirSync(paths.dir);
    paths.file = join(paths.dir, 'connection.secrets.json');
  });
  return paths;
}

/** A umask of 0 (as permissive as can be) around each test of the calling describe. */
export function usePermissiveUmask(): void {
  let oldUmask: number;
  beforeEach(() => {
    oldUmask = process.umask(0o000);
  });
  afterEach(() => {
    process.umask(oldUmask);
  });
}

/** The forms in which a file we write could hold `text`: UTF-8, UTF-16, base64 and hex. */
export const encodingsOf = (text: string): Buffer[] => [
  Buffer.from(text, 'utf8'),
  Buffer.from(text, 'utf16le'),
  Buffer.from(Buffer.from(text).toString('base64')),
  Buffer.from(Buffer.from(text).toString('hex')),
];

/** Every error message a test saw, and every secret and passphrase a test used. */
export function secretWatch() {
  const seenMessages: string[] = [];
  const secretsUsed: string[] = [PASSPHRASE];

  /** The error `work` fails with (recorded); a test failure if it does not fail. */
  async function failure(work: () => Promise<unknown>): Promise<Error> {
    try {
      await work();
    } catch (error) {
      seenMessages.push(String((error as Error).message));
      return error as Error;
    }
    throw new Error('expected a failure');
  }

  /** A fresh secret, recorded as used. */
  const marker = () => {
    const secret = leakMarker();
    secretsUsed.push(secret);
    return secret;
  };

  return { seenMessages, secretsUsed, failure, marker };
}
