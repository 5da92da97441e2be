// The contract every secret backend meets. One store holds the secrets of one service name; the
// desk uses one service per registry connection (`registry-desk:<connectionId>`, see
// `serviceForConnection`) and the account names the secret inside it (e.g. the app private key).
export type SecretStoreKind = 'keychain' | 'encrypted-file' | 'memory';

export interface SecretStore {
  readonly kind: SecretStoreKind;
  /** The stored secret, or null when the account has none. Throws a SecretStoreError when the backend fails. */
  get(account: string): Promise<string | null>;
  /** Stores (or replaces) the secret of the account. */
  set(account: string, secret: string): Promise<void>;
  /** Removes the account's secret; false when there was none. */
  delete(account: string): Promise<boolean>;
}
