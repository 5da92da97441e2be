// Adding a remote connection (connections.addRemote): where its keys will be kept, the registry
// asked to prove the address, the app id, the keys and the log key before anything is stored, then
// the keys and the connection stored. The manager announces it (connection-manager.ts).
import type { StoredConnection, SecretStoreKind } from './connections';
import { checkPrivateKeyPem } from './connection-keys';
import type { AddRemoteInput, ConnectionManagerOptions } from './connection-manager-api';
import { clientForConnection } from './connection-runtime';
import type { RegistryClient } from './client/registry-client';
import { DeskFailure } from './errors';
import type { KeyVault } from './key-vault';
import { operatorKeyId } from './local-operator';
import { isUnreachable, translateClientError } from './registry-calls';
import { checkNewPassphrase, keychainCause } from './secrets';
import { confirmLogKey, fetchLogKey } from './verification/log-key';

/**
 * What adding takes of the manager: its options, how it asks the registry for the app's facts, and
 * where it keeps the client that checked the connection as the connection's (connectionClient).
 */
export interface AddDeps extends Pick<ConnectionManagerOptions, 'connections' | 'clock' | 'keys' | 'keychain' | 'fetch'> {
  refreshAppFacts(connection: StoredConnection, client: RegistryClient): Promise<StoredConnection>;
  keepClient(connection: StoredConnection, client: RegistryClient): void;
}

/** Checks and stores a new remote connection with its keys; answers it as stored. */
export async function addRemoteConnection(deps: AddDeps, input: AddRemoteInput): Promise<StoredConnection> {
  const { connections, keys, keychain } = deps;
  checkPrivateKeyPem(input.privateKeyPem);
  if (input.operator) checkPrivateKeyPem(input.operator.privateKeyPem);
  let secretStore: SecretStoreKind;
  if (keychain.available) secretStore = 'keychain';
  else if (input.encryptedFileFallback) {
    // Before the registry is asked anything: a weak passphrase is refused at once.
    checkNewPassphrase(input.encryptedFileFallback.passphrase, [input.name, input.appId]);
    secretStore = 'encrypted-file';
  } else {
    throw new DeskFailure('invalid_input', `${keychainCause(keychain.reason)} Confirm storing the key in a passphrase-encrypted file.`, [
      'encryptedFileFallback: required when no keychain is available',
    ]);
  }
  const id = crypto.randomUUID();
  const draft: StoredConnection = {
    id,
    name: input.name,
    kind: 'remote',
    baseUrl: input.baseUrl,
    appId: input.appId,
    secretStore,
    examinerRead: false,
    installations: [],
    ...(input.operator ? { operatorId: input.operator.id } : {}),
  };
  // Prove the address, the app id and the key before anything is stored: a wrong pair is
  // refused, and so is an address that cannot be reached (a typo would otherwise be saved as a
  // connection that can never sync, with a key nobody checked). The client signs with the keys
  // given until they are stored, then reads them from their store like every connection's: kept
  // as the connection's, its app token (minted for the check) is the one its first sync uses.
  let given: { app: string; operator: string | undefined } | null = { app: input.privateKeyPem, operator: input.operator?.privateKeyPem };
  const client = clientForConnection(draft, deps, () => given);
  let connection: StoredConnection;
  try {
    connection = await deps.refreshAppFacts(draft, client);
    // the operator id and key too: the registry must give them an operator token
    if (input.operator) await client.tokens.grant({ kind: 'operator' });
    // the log key the person reviewed is the one pinned; another one served now is refused
    const served = await fetchLogKey(draft.baseUrl, deps.fetch);
    connection = { ...connection, logKey: (input.logKey === undefined ? served : confirmLogKey(input.logKey, served))?.key ?? null };
  } catch (error) {
    if (isUnreachable(error)) {
      throw new DeskFailure(
        'offline',
        `${draft.baseUrl} cannot be reached: check the address and that the registry is running, then add the connection again`,
      );
    }
    throw translateClientError(error, 'Adding the connection');
  }
  // The operator key is kept like the app key: beside it in the keychain, or in an encrypted file
  // of its own under the same passphrase.
  const stored: [string, string][] = [[id, input.privateKeyPem]];
  if (input.operator) stored.push([operatorKeyId(id), input.operator.privateKeyPem]);
  for (const [keyId, pem] of stored) {
    let vault: KeyVault;
    if (secretStore === 'encrypted-file') {
      vault = await keys.openEncryptedFile(keyId, input.encryptedFileFallback!.passphrase);
      keys.keepUnlocked(keyId, vault);
    } else vault = await keys.vaultFor(secretStore, keyId);
    await vault.importPrivateKey(keyId, pem);
  }
  given = null;
  const added = connections.put(connection);
  deps.keepClient(added, client);
  return added;
}
