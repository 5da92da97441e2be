// The keychain the shell drives for the desk service (launch.keychain 'host'): keytar, else
// Electron's safeStorage where it really encrypts (not Linux's basic_text), else none and the desk
// offers passphrase-encrypted files (electron/core/desk/secrets/keychain-backend.ts). Chosen once,
// on the first keychain question; the choice is logged and shown in Copy diagnostics.
import { join } from 'node:path';
import type { SafeStorage } from 'electron';
import { keychainDriver } from '../core/desk/process/host-side';
import { keychainVault, openSecretStore } from '../core/desk/secret-stores';
import { probeKeychain, serviceForConnection } from '../core/desk/secrets';
import { chooseKeychainBackend, type KeychainBackend } from '../core/desk/secrets/keychain-backend';

export interface HostKeychain {
  driver: ReturnType<typeof keychainDriver>;
  /** The store in use, for Copy diagnostics ("not chosen yet" before the first keychain question). */
  describe(): string;
}

export function hostKeychain(options: { safeStorage: SafeStorage; userData: string; log: (line: string) => void }): HostKeychain {
  let chosen: KeychainBackend | undefined;
  let choosing: Promise<KeychainBackend> | undefined;
  const choose = () =>
    (choosing ??= chooseKeychainBackend({
      probeKeytar: () => probeKeychain(),
      safeStorage: options.safeStorage,
      platform: process.platform,
      dir: join(options.userData, 'safe-storage'),
    }).then((backend) => {
      chosen = backend;
      options.log(`secret store: ${backend.name}: ${backend.availability.reason}`);
      return backend;
    }));
  const driver = keychainDriver(
    async (kind, storeOptions) => {
      if (kind !== 'keychain') return openSecretStore(kind, storeOptions);
      const backend = await choose();
      return keychainVault((connectionId) => backend.store(serviceForConnection(connectionId)));
    },
    async () => (await choose()).availability,
  );
  return { driver, describe: () => (chosen ? `${chosen.name}: ${chosen.availability.reason}` : 'not chosen yet (no key used so far)') };
}
