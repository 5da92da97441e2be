// The OS keychain driver (macOS Keychain, Windows Credential Manager, Linux Secret Service) through
// keytar. Secrets never pass through our own files or logs; failures become KeychainOperationError
// (or KeychainUnavailableError when keytar cannot load) with a message a user can act on.
//
// No timeout here on purpose: the OS may show an unlock prompt and wait for the user. Use
// probeKeychain (which has one) before choosing this store.
import { KeychainOperationError, SecretStoreError } from './errors';
import { explainKeychainFailure, redact } from './keychain-messages';
import { loadKeytar, type KeytarApi } from './keytar-loader';
import type { SecretStore } from './types';
import { accountNameSchema, parseInput, secretSchema, serviceNameSchema } from './validation';

export interface KeychainStoreOptions {
  /** A keytar-compatible implementation; defaults to the real keytar, loaded on first use. */
  keytar?: KeytarApi;
}

export function createKeychainStore(service: string, options: KeychainStoreOptions = {}): SecretStore {
  const serviceName = parseInput(serviceNameSchema, service, 'keychain service name');
  const keytar = (): Promise<KeytarApi> => (options.keytar ? Promise.resolve(options.keytar) : loadKeytar());

  async function run<T>(action: string, account: string, secret: string | undefined, call: (api: KeytarApi) => Promise<T>): Promise<T> {
    const api = await keytar();
    try {
      return await call(api);
    } catch (error) {
      if (error instanceof SecretStoreError) throw error;
      const why = redact(explainKeychainFailure(error), secret);
      throw new KeychainOperationError(`Could not ${action} "${account}" in the OS keychain (${serviceName}): ${why}`);
    }
  }

  return {
    kind: 'keychain',
    async get(account) {
      const name = parseInput(accountNameSchema, account, 'account');
      const value: unknown = await run('read', name, undefined, (api) => api.getPassword(serviceName, name));
      if (value !== null && typeof value !== 'string') {
        throw new KeychainOperationError(
          `Could not read "${name}" in the OS keychain (${serviceName}): it returned a ${typeof value}, not text.`,
        );
      }
      return value;
    },
    async set(account, secret) {
      const name = parseInput(accountNameSchema, account, 'account');
      const value = parseInput(secretSchema, secret, 'secret');
      await run('store', name, value, (api) => api.setPassword(serviceName, name, value));
    },
    async delete(account) {
      const name = parseInput(accountNameSchema, account, 'account');
      return (await run('delete', name, undefined, (api) => api.deletePassword(serviceName, name))) === true;
    },
  };
}

/** The keychain service name of one registry connection. */
export function serviceForConnection(connectionId: string): string {
  return parseInput(serviceNameSchema, `registry-desk:${connectionId}`, 'connection id');
}
