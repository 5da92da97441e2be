// Which keychain the Electron desk uses, in order: keytar (the user's choice: the OS keychain
// itself), else Electron's safeStorage where it really encrypts, else none, and keys go to
// passphrase-encrypted files. The choice and why are what the desk shows (connections.list's
// keychain reason) and what Help > Copy diagnostics reports.
import { createKeychainStore } from './keychain-store';
import type { KeychainProbeResult } from './keychain-probe';
import { createSafeStorageStore, safeStorageAvailability, type SafeStorageLike } from './safe-storage-store';
import type { SecretStore } from './types';

export interface KeychainBackend {
  name: 'keytar' | 'safeStorage' | 'none';
  /** What the desk shows: available, and a sentence naming the store. */
  availability: { available: boolean; reason: string };
  store(service: string): SecretStore;
}

export async function chooseKeychainBackend(options: {
  probeKeytar: () => Promise<KeychainProbeResult>;
  safeStorage: SafeStorageLike | undefined;
  platform: NodeJS.Platform;
  /** Where safeStorage's ciphertexts go (<userData>/safe-storage). */
  dir: string;
}): Promise<KeychainBackend> {
  const keytar = await options.probeKeytar();
  if (keytar.available) {
    return {
      name: 'keytar',
      availability: { available: true, reason: 'Keys are kept in the OS keychain (keytar).' },
      store: (service) => createKeychainStore(service),
    };
  }
  const safe = options.safeStorage
    ? safeStorageAvailability(options.safeStorage, options.platform)
    : { available: false as const, reason: 'Electron safeStorage is not available outside Electron.' };
  if (safe.available) {
    const safeStorage = options.safeStorage!;
    return {
      name: 'safeStorage',
      availability: {
        available: true,
        reason: `Keys are kept encrypted by Electron safeStorage (${safe.backend}), because keytar is unavailable: ${keytar.reason}`,
      },
      store: (service) => createSafeStorageStore(service, { safeStorage, dir: options.dir }),
    };
  }
  return {
    name: 'none',
    availability: { available: false, reason: `${keytar.reason} ${safe.reason} Keys are kept in passphrase-encrypted files.` },
    store: () => {
      throw new Error('no keychain on this machine: use a passphrase-encrypted file');
    },
  };
}
