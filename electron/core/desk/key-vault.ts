// Where a connection's private key lives, as the desk service sees it. The real stores (OS keychain,
// passphrase-encrypted file) are electron/core/secrets/; this port lets the service ask for "the key
// of connection X" without knowing which store holds it. The memory vault serves the embedded demo
// when no keychain exists (its key is re-imported from demo-credentials.json at every start) and the
// command-line remote connection (--key-file is read at every start).
import type { SecretStoreKind } from './connections';

export interface KeyVault {
  readonly kind: SecretStoreKind;
  /** The PEM; throws an Error whose message says why it cannot be read (never the key). */
  readPrivateKey(connectionId: string): Promise<string>;
  importPrivateKey(connectionId: string, pem: string): Promise<void>;
  deletePrivateKey(connectionId: string): Promise<void>;
}

export interface KeychainAvailability {
  available: boolean;
  reason?: string;
}

/** Opens the vault of one kind; the encrypted file needs the passphrase the user gave. */
export type SecretStoreFactory = (kind: SecretStoreKind, options?: { passphrase?: string }) => KeyVault | Promise<KeyVault>;

export function createMemoryVault(): KeyVault {
  const keys = new Map<string, string>();
  return {
    kind: 'memory',
    async readPrivateKey(connectionId) {
      const pem = keys.get(connectionId);
      if (pem === undefined) throw new Error('the key was kept in memory only and is gone since the desk restarted; re-import it');
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
