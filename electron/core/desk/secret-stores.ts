// The desk's KeyVault port over the real secret stores of electron/core/desk/secrets: the OS keychain
// (service `registry-desk:<connectionId>`) and one passphrase-encrypted file per connection
// (<dataDir>/secrets/<connectionId>.secrets). The key is validated on import and on every read.
import { join } from 'node:path';
import {
  createEncryptedFileStore,
  createKeychainStore,
  importPrivateKey,
  probeKeychain,
  readPrivateKey,
  serviceForConnection,
  type SecretStore,
} from './secrets';
import { KeyReadError, type KeychainAvailability, type KeyVault, type SecretStoreFactory } from './key-vault';

/** The account, inside a connection's service, that holds the app's private key. */
export const PRIVATE_KEY_ACCOUNT = 'app-private-key';

function vaultOver(kind: 'keychain' | 'encrypted-file', storeOf: (connectionId: string) => SecretStore): KeyVault {
  return {
    kind,
    async readPrivateKey(connectionId) {
      const result = await readPrivateKey(storeOf(connectionId), PRIVATE_KEY_ACCOUNT);
      if (!result.ok) throw new KeyReadError(result.reason, result.message);
      return result.pem;
    },
    async importPrivateKey(connectionId, pem) {
      await importPrivateKey(storeOf(connectionId), PRIVATE_KEY_ACCOUNT, pem);
    },
    async deletePrivateKey(connectionId) {
      await storeOf(connectionId).delete(PRIVATE_KEY_ACCOUNT);
    },
  };
}

/** A keychain KeyVault over another keychain-like store (Electron's safeStorage in the shell). */
export const keychainVault = (storeOf: (connectionId: string) => SecretStore): KeyVault => vaultOver('keychain', storeOf);

export const encryptedKeyFile = (directory: string, connectionId: string) => join(directory, `${connectionId}.secrets`);

export const openSecretStore: SecretStoreFactory = async (kind, options) => {
  if (kind === 'keychain') return vaultOver('keychain', (connectionId) => createKeychainStore(serviceForConnection(connectionId)));
  if (options.passphrase === undefined) throw new KeyReadError('unreadable', 'The key file is locked: enter its passphrase');
  // Opening checks the passphrase at once (a wrong one throws here, before any use).
  const store = await createEncryptedFileStore(encryptedKeyFile(options.directory, options.connectionId), options.passphrase, {
    userConfirmed: true,
  });
  return vaultOver('encrypted-file', () => store);
};

export async function keychainAvailability(): Promise<KeychainAvailability> {
  const probe = await probeKeychain();
  return probe.available ? { available: true } : { available: false, reason: probe.reason };
}
