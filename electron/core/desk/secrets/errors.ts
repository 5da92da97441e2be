// Typed errors of the secret stores, so the desk can tell "wrong passphrase" from "file damaged"
// from "no keychain" without parsing messages. Messages are shown to users and may be logged, so
// they never contain a secret or a passphrase: every constructor takes only text we composed.
export type SecretStoreErrorCode =
  | 'invalid_input'
  | 'keychain_unavailable'
  | 'keychain_failed'
  | 'wrong_passphrase'
  | 'file_tampered'
  | 'file_unreadable'
  | 'invalid_private_key';

export class SecretStoreError extends Error {
  constructor(
    readonly code: SecretStoreErrorCode,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** An argument failed validation; nothing was read or changed. */
export class InvalidSecretInputError extends SecretStoreError {
  constructor(message: string) {
    super('invalid_input', message);
  }
}

/** The OS keychain cannot be used at all (native module missing, no Secret Service, no answer). */
export class KeychainUnavailableError extends SecretStoreError {
  constructor(message: string) {
    super('keychain_unavailable', message);
  }
}

/** The keychain is there but an operation on it failed. */
export class KeychainOperationError extends SecretStoreError {
  constructor(message: string) {
    super('keychain_failed', message);
  }
}

/** The passphrase does not open the encrypted secrets file. */
export class WrongPassphraseError extends SecretStoreError {
  constructor(file: string) {
    super('wrong_passphrase', `The passphrase does not unlock the secrets file ${file}.`);
  }
}

/** The passphrase is right but the encrypted content fails authentication: it was altered or damaged. */
export class SecretFileTamperedError extends SecretStoreError {
  constructor(file: string, detail: string) {
    super('file_tampered', `The secrets file ${file} has been altered or damaged (${detail}); it cannot be trusted.`);
  }
}

/** The secrets file could not be read or written (permissions, disk, not a secrets file at all). */
export class SecretFileUnreadableError extends SecretStoreError {
  constructor(message: string) {
    super('file_unreadable', message);
  }
}

/** A PEM offered as an app private key is not an unencrypted RSA private key of at least 2048 bits. */
export class InvalidPrivateKeyError extends SecretStoreError {
  constructor(message: string) {
    super('invalid_private_key', message);
  }
}
