// Electron's safeStorage as the keychain where keytar cannot load (keytar is archived upstream; VS
// Code and Signal moved to safeStorage). safeStorage only encrypts: the ciphertext is kept here, one
// file per secret under <userData>/safe-storage, named by a hash of service and account, mode 0600.
// Its key lives in the OS keychain (macOS Keychain, Windows DPAPI, Linux Secret Service/KWallet).
// On Linux without a keyring it falls back to `basic_text`, a fixed key written in Chromium's
// source: that is obfuscation, not encryption, so it is refused and the passphrase file is used.
// No 'electron' import: SafeStorageLike is the part of Electron's safeStorage used.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '@platform/atomic-write.mjs';
import { KeychainOperationError } from './errors';
import type { SecretStore } from './types';
import { accountNameSchema, parseInput, secretSchema, serviceNameSchema } from './validation';

export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only: 'basic_text', 'gnome_libsecret', 'kwallet', 'kwallet5', 'kwallet6' or 'unknown'. */
  getSelectedStorageBackend?(): string;
}

export type SafeStorageAvailability = { available: true; backend: string } | { available: false; reason: string };

/** Whether safeStorage really encrypts on this machine. */
export function safeStorageAvailability(safeStorage: SafeStorageLike, platform: NodeJS.Platform): SafeStorageAvailability {
  if (!safeStorage.isEncryptionAvailable())
    return { available: false, reason: 'Electron safeStorage reports no encryption on this machine.' };
  if (platform !== 'linux') return { available: true, backend: platform === 'darwin' ? 'macOS Keychain' : 'Windows DPAPI' };
  const backend = safeStorage.getSelectedStorageBackend?.() ?? 'unknown';
  if (backend === 'basic_text' || backend === 'unknown') {
    return {
      available: false,
      reason: `Electron safeStorage has no keyring here (backend "${backend}": a fixed, public key, not encryption), so it is not used.`,
    };
  }
  return { available: true, backend };
}

export function createSafeStorageStore(service: string, options: { safeStorage: SafeStorageLike; dir: string }): SecretStore {
  const serviceName = parseInput(serviceNameSchema, service, 'keychain service name');
  const fileOf = (account: string) =>
    join(options.dir, `${createHash('sha256').update(`${serviceName}\0${account}`).digest('hex').slice(0, 40)}.bin`);

  return {
    kind: 'keychain',
    async get(account) {
      const name = parseInput(accountNameSchema, account, 'account');
      let encrypted: Buffer;
      try {
        encrypted = readFileSync(fileOf(name));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw new KeychainOperationError(`Could not read "${name}" (${serviceName}) from safeStorage: ${(error as Error).message}`);
      }
      try {
        return options.safeStorage.decryptString(encrypted);
      } catch {
        throw new KeychainOperationError(
          `Could not decrypt "${name}" (${serviceName}): safeStorage's key has changed or the file is damaged.`,
        );
      }
    },
    async set(account, secret) {
      const name = parseInput(accountNameSchema, account, 'account');
      const value = parseInput(secretSchema, secret, 'secret');
      mkdirSync(options.dir, { recursive: true, mode: 0o700 });
      await writeFileAtomic(fileOf(name), options.safeStorage.encryptString(value), { mode: 0o600 });
    },
    async delete(account) {
      const name = parseInput(accountNameSchema, account, 'account');
      try {
        readFileSync(fileOf(name));
      } catch {
        return false;
      }
      rmSync(fileOf(name), { force: true });
      return true;
    },
  };
}
