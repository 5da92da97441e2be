// Where each connection's app private key is kept, for this run of the desk: the OS keychain (one
// vault for every connection), a passphrase-encrypted file per connection (locked until the user
// unlocks it, then kept open until the desk stops), or memory (the embedded demo without a
// keychain, the command-line remote). The key is read only to mint tokens and to check it, and
// never appears in a message.
import { createHash, createPrivateKey } from 'node:crypto';
import { resolve } from 'node:path';
import type { ConnectionInfo } from '@shared/desk/api';
import type { SecretStoreKind, StoredConnection } from './connections';
import { DeskFailure } from './errors';
import { SecretStoreError } from './secrets';
import { operatorKeyId } from './local-operator';
import { createMemoryVault, KeyReadError, type KeyVault, type SecretStoreFactory } from './key-vault';

/**
 * The embedded registry's connection id is the same in every desk data folder, but each folder's
 * embedded registry has its own app and operator keys. The OS keychain is one per OS user: two
 * folders (two profiles, parallel test desks) would overwrite each other's entries, and a running
 * desk would then sign with the other folder's key. So its keychain entries carry the folder's tag.
 * (Other connection ids are random, so their entries are already the folder's own.)
 */
export const EMBEDDED_KEY_IDS: ReadonlySet<string> = new Set(['embedded', operatorKeyId('embedded')]);

/** A short tag of a desk data folder (from its secrets folder's absolute path). */
export function folderTag(secretsDir: string): string {
  return createHash('sha256').update(resolve(secretsDir)).digest('hex').slice(0, 12);
}

/** The keychain vault with the embedded registry's entries scoped to this data folder. */
function scopeEmbeddedEntries(vault: KeyVault, tag: string): KeyVault {
  const entry = (id: string) => (EMBEDDED_KEY_IDS.has(id) ? `${id}@${tag}` : id);
  return {
    kind: vault.kind,
    readPrivateKey: (id) => vault.readPrivateKey(entry(id)),
    importPrivateKey: (id, pem) => vault.importPrivateKey(entry(id), pem),
    deletePrivateKey: (id) => vault.deletePrivateKey(entry(id)),
  };
}

export interface ConnectionKeys {
  /** The vault of keys kept in memory only. */
  readonly memory: KeyVault;
  /** The vault holding a connection's key; an encrypted file must have been unlocked (or just created). */
  vaultFor(kind: SecretStoreKind, connectionId: string): Promise<KeyVault>;
  /** Opens a connection's encrypted key file with its passphrase (a wrong one throws); see keepUnlocked. */
  openEncryptedFile(connectionId: string, passphrase: string): Promise<KeyVault>;
  /** Keeps an opened encrypted file unlocked for the rest of this run. */
  keepUnlocked(connectionId: string, vault: KeyVault): void;
  /**
   * Deletes a removed connection's key and forgets its unlocked file. A failure (a locked file, a
   * keychain that refuses) does not stop the removal: it is logged, without the key.
   */
  deleteKey(connection: StoredConnection): Promise<void>;
  /** Reads the connection's key when a token must be minted. */
  loaderFor(connection: StoredConnection): () => Promise<string>;
  /** Reads the connection's operator key (operatorKeyId) when an operator token must be minted. */
  operatorLoaderFor(connection: StoredConnection): () => Promise<string>;
  /** Whether the connection's key can be read and used, and if not, why. */
  keyStatus(connection: StoredConnection): Promise<Pick<ConnectionInfo, 'keyStatus' | 'keyMessage'>>;
}

export function createConnectionKeys(options: {
  /** Opens the secret store of a kind (keychain, encrypted file); without it only memory is available. */
  secretStoreFactory?: SecretStoreFactory;
  /** Where encrypted key files live (<dataDir>/secrets). */
  secretsDir: string;
  log?: (line: string) => void;
}): ConnectionKeys {
  const log = options.log ?? (() => {});
  const memory = createMemoryVault();
  let keychainVault: KeyVault | undefined;
  // Passphrase-encrypted stores are per connection and stay unlocked for this run only.
  const unlockedFiles = new Map<string, KeyVault>();

  async function openStore(kind: Exclude<SecretStoreKind, 'memory'>, connectionId: string, passphrase?: string): Promise<KeyVault> {
    if (!options.secretStoreFactory) throw new DeskFailure('key_unavailable', `The ${kind} secret store is not available in this build`);
    return options.secretStoreFactory(kind, {
      connectionId,
      directory: options.secretsDir,
      ...(passphrase === undefined ? {} : { passphrase }),
    });
  }

  async function vaultFor(kind: SecretStoreKind, connectionId: string): Promise<KeyVault> {
    if (kind === 'memory') return memory;
    if (kind === 'keychain')
      return (keychainVault ??= scopeEmbeddedEntries(await openStore('keychain', connectionId), folderTag(options.secretsDir)));
    const unlocked = unlockedFiles.get(connectionId);
    if (!unlocked)
      throw new DeskFailure(
        'key_unavailable',
        "The app's key is in a passphrase-encrypted file that is locked: unlock it with its passphrase in Connections",
      );
    return unlocked;
  }

  return {
    memory,
    vaultFor,
    openEncryptedFile: (connectionId, passphrase) => openStore('encrypted-file', connectionId, passphrase),
    keepUnlocked: (connectionId, vault) => void unlockedFiles.set(connectionId, vault),

    async deleteKey(connection) {
      try {
        await (await vaultFor(connection.secretStore, connection.id)).deletePrivateKey(connection.id);
      } catch (error) {
        const why = shownMessage(error) ?? 'the store failed unexpectedly';
        log(`the key of removed connection ${connection.id} could not be deleted from its ${connection.secretStore} store: ${why}`);
      }
      unlockedFiles.delete(connection.id);
      if (connection.operatorId !== undefined) {
        const keyId = operatorKeyId(connection.id);
        try {
          await (await vaultFor(connection.secretStore, keyId)).deletePrivateKey(keyId);
        } catch (error) {
          const why = shownMessage(error) ?? 'the store failed unexpectedly';
          log(
            `the operator key of removed connection ${connection.id} could not be deleted from its ${connection.secretStore} store: ${why}`,
          );
        }
        unlockedFiles.delete(keyId);
      }
    },

    loaderFor: (connection) => async () => (await vaultFor(connection.secretStore, connection.id)).readPrivateKey(connection.id),
    operatorLoaderFor: (connection) => async () => {
      const keyId = operatorKeyId(connection.id);
      return (await vaultFor(connection.secretStore, keyId)).readPrivateKey(keyId);
    },

    async keyStatus(connection) {
      let keyStatus: ConnectionInfo['keyStatus'] = 'ok';
      let keyMessage: string | undefined;
      try {
        const pem = await (await vaultFor(connection.secretStore, connection.id)).readPrivateKey(connection.id);
        try {
          createPrivateKey(pem);
        } catch {
          keyStatus = 'invalid';
          keyMessage = 'The stored key is not a valid private key: re-import it.';
        }
      } catch (error) {
        ({ keyStatus, keyMessage } = keyReadFailure(error));
      }
      if (keyStatus === 'ok' && connection.secretStore === 'memory') {
        keyMessage =
          connection.kind === 'embedded'
            ? 'No OS keychain here: the demo key is kept in memory and re-read from the demo data at every start, and the local administrator keeps its account but gets a new key at every start (each one an audit entry).'
            : 'The key was read from --key-file and is kept in memory only.';
      }
      return { keyStatus, ...(keyMessage ? { keyMessage: asSentence(keyMessage) } : {}) };
    },
  };
}

/**
 * A notice shown as it is in Settings, as a sentence: a store's or a vault's message may be written
 * to follow other words (lower case first, no full stop), so it is made to stand alone here.
 */
function asSentence(text: string): string {
  const trimmed = text.trim();
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/**
 * The message of an error written to be shown and never carrying a secret: the vaults' KeyReadError,
 * the desk's own failures (a locked file, no such store in this build) and the secret stores'
 * errors. Anything else may quote what it failed on, so its message is not passed on.
 */
function shownMessage(error: unknown): string | undefined {
  return error instanceof KeyReadError || error instanceof DeskFailure || error instanceof SecretStoreError ? error.message : undefined;
}

/** Why a key cannot be read, by the type of what was thrown: a KeyReadError names its reason. */
function keyReadFailure(error: unknown): { keyStatus: Exclude<ConnectionInfo['keyStatus'], 'ok'>; keyMessage: string } {
  const keyMessage = shownMessage(error) ?? 'The key could not be read: its secret store failed unexpectedly.';
  return { keyStatus: error instanceof KeyReadError ? error.reason : 'unreadable', keyMessage };
}

/** Refuses anything but a PEM-encoded RSA private key, without ever echoing the PEM. */
export function checkPrivateKeyPem(pem: string): void {
  try {
    const key = createPrivateKey(pem);
    if (key.asymmetricKeyType !== 'rsa') throw new Error('not RSA');
  } catch {
    // Never echo the PEM (nor OpenSSL's view of it).
    throw new DeskFailure('invalid_input', 'The private key is not a PEM-encoded RSA private key', [
      'privateKeyPem: not a PEM-encoded RSA private key',
    ]);
  }
}
