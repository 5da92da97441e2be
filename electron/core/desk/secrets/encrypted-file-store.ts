// The fallback when no OS keychain is available: secrets of one service in one file, encrypted
// with a key derived from a passphrase the user chose (format: encrypted-file-format.ts). Weaker
// than a keychain (the passphrase is the only protection), so it is only created when the caller
// passes `{ userConfirmed: true }` after asking the user.
//
// Every operation re-reads the file, so edits by another desk window are seen; writes within this
// process are queued so two sets cannot lose each other's update. Two processes writing the same
// file at the same moment can still lose one update (no cross-process lock).
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, isAbsolute } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '@platform/atomic-write.mjs';
import { InvalidSecretInputError, SecretFileUnreadableError, SecretStoreError } from './errors';
import {
  DEFAULT_SCRYPT,
  decryptSecrets,
  deriveKeys,
  encryptSecrets,
  isOutdatedKdf,
  newKdfParams,
  parseSecretsFile,
  verifyPassphrase,
  type DerivedKeys,
  scryptCostSchema,
  type KdfParams,
  type ScryptCost,
  type SecretsContent,
} from './encrypted-file-format';
import { checkNewPassphrase } from './passphrase-strength';
import type { SecretStore } from './types';
import { accountNameSchema, parseInput, passphraseSchema, secretSchema } from './validation';

export interface EncryptedFileStoreOptions {
  /** The user was told the secrets will be protected by this passphrase only, and agreed. */
  userConfirmed: true;
  /**
   * The scrypt cost new files get, and below which a file is re-encrypted on its next write. The
   * desk never passes it (DEFAULT_SCRYPT); tests pass the lowest cost a file may hold (N = 2^15),
   * a quarter of the work per key derivation. Nothing weaker than what a file may hold is accepted.
   */
  scryptCost?: ScryptCost;
}

const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

const pathSchema = z.string().min(1).max(4096).refine(isAbsolute, 'must be an absolute path');
const optionsSchema = z.object({ userConfirmed: z.literal(true), scryptCost: scryptCostSchema.optional() });

export async function createEncryptedFileStore(file: string, passphrase: string, options: EncryptedFileStoreOptions): Promise<SecretStore> {
  const parsedOptions = optionsSchema.safeParse(options);
  if (!parsedOptions.success) {
    const confirmed = (options as { userConfirmed?: unknown } | undefined)?.userConfirmed === true;
    throw new InvalidSecretInputError(
      confirmed
        ? 'The encrypted-file store was given a scrypt cost a secrets file may not hold (N a power of two from 2^15 to 2^20, r from 8 to 32, p from 1 to 4).'
        : "The encrypted-file store needs the user's explicit confirmation ({ userConfirmed: true }): its secrets are protected only by the passphrase, not by the OS keychain.",
    );
  }
  const path = parseInput(pathSchema, file, 'secrets file path');
  const secret = parseInput(passphraseSchema, passphrase, 'passphrase');
  // A new file's passphrase is its only protection: refuse one that is easy to guess.
  if (!existsSync(path)) checkNewPassphrase(secret);
  const store = new EncryptedFileStore(path, secret, parsedOptions.data.scryptCost ?? DEFAULT_SCRYPT);
  // Opening an existing file checks the passphrase now, so the desk can ask again at once.
  await store.load();
  return store;
}

class EncryptedFileStore implements SecretStore {
  readonly kind = 'encrypted-file' as const;
  private keys: DerivedKeys | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly file: string,
    private readonly passphrase: string,
    private readonly cost: ScryptCost,
  ) {}

  async get(account: string): Promise<string | null> {
    const name = parseInput(accountNameSchema, account, 'account');
    return this.serialized(async () => (await this.load()).secrets[name] ?? null);
  }

  async set(account: string, secret: string): Promise<void> {
    const name = parseInput(accountNameSchema, account, 'account');
    const value = parseInput(secretSchema, secret, 'secret');
    await this.serialized(async () => {
      const content = await this.load();
      await this.save({ secrets: { ...content.secrets, [name]: value } });
    });
  }

  async delete(account: string): Promise<boolean> {
    const name = parseInput(accountNameSchema, account, 'account');
    return this.serialized(async () => {
      const content = await this.load();
      if (!Object.hasOwn(content.secrets, name)) return false;
      const { [name]: _removed, ...rest } = content.secrets;
      await this.save({ secrets: rest });
      return true;
    });
  }

  /** The decrypted content; empty when the file does not exist yet. */
  async load(): Promise<SecretsContent> {
    const text = await this.readText();
    if (text === undefined) return { secrets: {} };
    const parsed = parseSecretsFile(text, this.file);
    const keys = await this.keysFor(parsed.kdf);
    verifyPassphrase(parsed, keys, this.file);
    return decryptSecrets(parsed, keys, this.file);
  }

  private async save(content: SecretsContent): Promise<void> {
    // A new file gets a fresh random salt; an existing one keeps its salt (load() set this.keys),
    // unless its KDF is weaker than today's: then it is re-encrypted with new settings and salt.
    const keys = this.keys && !isOutdatedKdf(this.keys.kdf, this.cost) ? this.keys : await this.keysFor(newKdfParams(this.cost));
    const text = encryptSecrets(content, keys);
    try {
      await mkdir(dirname(this.file), { recursive: true, mode: DIR_MODE });
      await writeFileAtomic(this.file, text, { mode: FILE_MODE });
    } catch (error) {
      throw new SecretFileUnreadableError(`Could not write the secrets file ${this.file}: ${systemReason(error)}`);
    }
  }

  private async readText(): Promise<string | undefined> {
    try {
      return await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new SecretFileUnreadableError(`Could not read the secrets file ${this.file}: ${systemReason(error)}`);
    }
  }

  private async keysFor(kdf: KdfParams): Promise<DerivedKeys> {
    const cached = this.keys;
    if (cached && sameKdf(cached.kdf, kdf)) return cached;
    const keys = await deriveKeys(this.passphrase, kdf);
    this.keys = keys;
    return keys;
  }

  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const result = this.queue.then(work, work);
    this.queue = result.catch(() => undefined);
    return result;
  }
}

function sameKdf(a: KdfParams, b: KdfParams): boolean {
  return a.name === b.name && a.N === b.N && a.r === b.r && a.p === b.p && a.salt === b.salt;
}

// Only the errno code and syscall: fs messages are ours to trust, but keep them short and stable.
function systemReason(error: unknown): string {
  if (error instanceof SecretStoreError) return error.message;
  const err = error as NodeJS.ErrnoException;
  return err.code ? `${err.code} (${err.syscall ?? 'fs'})` : 'unexpected error';
}
