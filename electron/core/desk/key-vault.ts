// Where a connection's private key lives, as the desk service sees it. The real stores (OS keychain,
// passphrase-encrypted file) are electron/core/desk/secrets/; this port lets the service ask for "the key
// of connection X" without knowing which store holds it. The memory vault serves the embedded demo
// when no keychain exists (its key is re-imported from demo-credentials.json at every start) and the
// command-line remote connection (--key-file is read at every start).
import type { SecretStoreKind } from './connections';

/** Why a vault cannot hand out a connection's key; `reason` becomes the connection's keyStatus. */
export class KeyReadError extends Error {
  constructor(
    readonly reason: 'missing' | 'unreadable' | 'invalid',
    /** Says why, for the user; never contains the key. */
    message: string,
  ) {
    super(message);
    this.name = 'KeyReadError';
  }
}

export interface KeyVault {
  readonly kind: SecretStoreKind;
  /** The PEM; throws a KeyReadError saying why it cannot be read (never the key). */
  readPrivateKey(connectionId: string): Promise<string>;
  importPrivateKey(connectionId: string, pem: string): Promise<void>;
  deletePrivateKey(connectionId: string): Promise<void>;
}

export interface KeychainAvailability {
  available: boolean;
  reason?: string;
}

export interface OpenStoreOptions {
  /** The connection whose key the store is opened for (an encrypted file holds one key). */
  connectionId: string;
  /** Where encrypted key files live (<dataDir>/secrets). */
  directory: string;
  /** For the encrypted file: the passphrase the user gave. */
  passphrase?: string;
}

/** Opens the store of one kind (the keychain, or one connection's passphrase-encrypted file). */
export type SecretStoreFactory = (kind: Exclude<SecretStoreKind, 'memory'>, options: OpenStoreOptions) => KeyVault | Promise<KeyVault>;

export function createMemoryVault(): KeyVault {
  const keys = new Map<string, string>();
  return {
    kind: 'memory',
    async readPrivateKey(connectionId) {
      const pem = keys.get(connectionId);
      if (pem === undefined)
        throw new KeyReadError('missing', 'the key was kept in memory only and is gone since the desk restarted; re-import it');
      return pem;
    },
    async importPrivateKey(connectionId, pem) {
      keys.set(connectionId, pem);
    },
    async deletePrivateKey(connectionId) {
      keys.delete(connectionId);
    },
  };
}
