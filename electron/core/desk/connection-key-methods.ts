// connections.reimportKey and connections.unlock (connection-manager.ts): a connection's keys.
import { checkPrivateKeyPem } from './connection-keys';
import { operatorKeyId } from './local-operator';
import { DeskFailure } from './errors';
import { KeyReadError, type KeyVault } from './key-vault';
import { SecretStoreError } from './secrets';
import type { ConnectionManager } from './connection-manager-api';
import { forgetTokens, requireConnection, type ManagerState } from './connection-activation';
import { connectionInfo } from './connection-status';

/** connections.reimportKey and connections.unlock: a connection's key replaced, or its encrypted file opened. */
export function keyMethods(m: ManagerState): Pick<ConnectionManager, 'reimportKey' | 'unlock'> {
  const { options } = m;
  const { keys, log } = options;
  return {
    async reimportKey(input) {
      const connection = requireConnection(m, input.id);
      checkPrivateKeyPem(input.privateKeyPem);
      await (await keys.vaultFor(connection.secretStore, connection.id)).importPrivateKey(connection.id, input.privateKeyPem);
      forgetTokens(m, connection);
      options.publish({ type: 'connections.changed' });
      return connectionInfo(m, connection);
    },

    async unlock(input) {
      const connection = requireConnection(m, input.id);
      if (connection.secretStore !== 'encrypted-file')
        throw new DeskFailure('invalid_input', 'Only a key in a passphrase-encrypted file needs unlocking', [
          'id: not an encrypted-file connection',
        ]);
      let vault: KeyVault;
      try {
        vault = await keys.openEncryptedFile(connection.id, input.passphrase);
        checkPrivateKeyPem(await vault.readPrivateKey(connection.id));
      } catch (error) {
        // The secret stores' messages are written to be shown (and never carry the key).
        throw new DeskFailure(
          'key_unavailable',
          `The key file cannot be opened with this passphrase${error instanceof SecretStoreError || error instanceof KeyReadError ? `: ${error.message}` : ''}`,
        );
      }
      keys.keepUnlocked(connection.id, vault);
      if (connection.operatorId !== undefined) {
        // the operator key's file has the same passphrase; when it cannot be opened the app key still works
        try {
          keys.keepUnlocked(operatorKeyId(connection.id), await keys.openEncryptedFile(operatorKeyId(connection.id), input.passphrase));
        } catch {
          log(`the operator key of connection ${connection.id} could not be unlocked; its operator endpoints stay locked`);
        }
      }
      forgetTokens(m, connection);
      options.publish({ type: 'connections.changed' });
      return connectionInfo(m, connection);
    },
  };
}
