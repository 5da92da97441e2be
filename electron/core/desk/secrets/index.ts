// The desk's secret storage. Main process only (no 'electron' import: tested under plain Node).
export type { SecretStore, SecretStoreKind } from './types';
export {
  SecretStoreError,
  InvalidSecretInputError,
  KeychainUnavailableError,
  KeychainOperationError,
  WrongPassphraseError,
  SecretFileTamperedError,
  SecretFileUnreadableError,
  InvalidPrivateKeyError,
  type SecretStoreErrorCode,
} from './errors';
export { createKeychainStore, serviceForConnection, type KeychainStoreOptions } from './keychain-store';
export { keychainCause } from './keychain-messages';
export { probeKeychain, DEFAULT_PROBE_TIMEOUT_MS, type KeychainProbeResult, type ProbeKeychainOptions } from './keychain-probe';
export type { KeytarApi } from './keytar-loader';
export { createEncryptedFileStore, type EncryptedFileStoreOptions } from './encrypted-file-store';
export { createMemoryStore } from './memory-store';
export { checkNewPassphrase, passphraseWeakness, MIN_PASSPHRASE_SCORE } from './passphrase-strength';
export { importPrivateKey, readPrivateKey, parseRsaPrivateKeyPem, type ReadPrivateKeyResult, type ImportedPrivateKey } from './private-key';
