// The app private key of a registry connection: validated before it is stored, and read back in a
// way that never throws, so a damaged or unreachable keychain makes the desk offer "re-import the
// key" instead of crashing. Messages never include the key, not even a fragment of it.
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { InvalidPrivateKeyError, SecretStoreError } from './errors';
import type { SecretStore } from './types';
import { accountNameSchema, MAX_SECRET_LENGTH, parseInput } from './validation';
import { z } from 'zod';
import { MIN_RSA_KEY_BITS } from '@shared/registry/operator-fields';

export type ReadPrivateKeyResult = { ok: true; pem: string } | { ok: false; reason: 'missing' | 'unreadable' | 'invalid'; message: string };

export interface ImportedPrivateKey {
  modulusLength: number;
  /** SPKI PEM of the matching public key, to compare with the key registered for the app. */
  publicKeyPem: string;
}

const pemTextSchema = z.string().min(1).max(MAX_SECRET_LENGTH);

/**
 * Checks that `pem` is an unencrypted RSA private key of at least 2048 bits and returns it as a
 * PKCS#8 PEM (the form JWT libraries import), plus its public half. Throws InvalidPrivateKeyError.
 */
export function parseRsaPrivateKeyPem(pem: unknown): { pkcs8Pem: string } & ImportedPrivateKey {
  const parsed = pemTextSchema.safeParse(pem);
  if (!parsed.success) throw new InvalidPrivateKeyError(`The private key must be PEM text of 1 to ${MAX_SECRET_LENGTH} characters.`);
  const text = parsed.data;
  // Name the common mix-ups before asking OpenSSL, whose messages are not for users.
  if (/-----BEGIN (RSA )?PUBLIC KEY-----/.test(text))
    throw new InvalidPrivateKeyError(
      'This is a public key. Import the private key (PEM starting with "-----BEGIN PRIVATE KEY-----" or "-----BEGIN RSA PRIVATE KEY-----").',
    );
  if (/-----BEGIN CERTIFICATE-----/.test(text))
    throw new InvalidPrivateKeyError('This is a certificate, not a private key. Import the private key PEM.');
  if (/-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type: 4,ENCRYPTED/.test(text))
    throw new InvalidPrivateKeyError('This private key is protected by a passphrase. Export it without a passphrase and import that.');
  if (!/-----BEGIN (RSA )?PRIVATE KEY-----/.test(text))
    throw new InvalidPrivateKeyError(
      'This is not a PEM private key (expected "-----BEGIN PRIVATE KEY-----" or "-----BEGIN RSA PRIVATE KEY-----").',
    );
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: text, format: 'pem' });
  } catch {
    throw new InvalidPrivateKeyError('The private key PEM could not be decoded (it is damaged or incomplete).');
  }
  if (key.asymmetricKeyType !== 'rsa')
    throw new InvalidPrivateKeyError(
      `The private key is ${key.asymmetricKeyType ?? 'of an unknown type'}; registry apps sign with RSA keys.`,
    );
  const modulusLength = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (modulusLength < MIN_RSA_KEY_BITS)
    throw new InvalidPrivateKeyError(`The RSA key has ${modulusLength} bits; at least ${MIN_RSA_KEY_BITS} are required.`);
  return {
    pkcs8Pem: key.export({ type: 'pkcs8', format: 'pem' }).toString(),
    modulusLength,
    publicKeyPem: createPublicKey(key).export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/** Validates `pem` and stores it (as PKCS#8) under `account`; on any problem throws and stores nothing. */
export async function importPrivateKey(store: SecretStore, account: string, pem: string): Promise<ImportedPrivateKey> {
  const name = parseInput(accountNameSchema, account, 'account');
  const { pkcs8Pem, modulusLength, publicKeyPem } = parseRsaPrivateKeyPem(pem);
  await store.set(name, pkcs8Pem);
  return { modulusLength, publicKeyPem };
}

/** Reads and re-validates the stored key. Never throws: every failure is a result the desk can show. */
export async function readPrivateKey(store: SecretStore, account: string): Promise<ReadPrivateKeyResult> {
  let stored: string | null;
  try {
    const name = parseInput(accountNameSchema, account, 'account');
    stored = await store.get(name);
  } catch (error) {
    // Our stores' messages are written to be shown; anything else is not trusted to be secret-free.
    const why = error instanceof SecretStoreError ? error.message : 'an unexpected error occurred';
    return {
      ok: false,
      reason: 'unreadable',
      message: `The private key could not be read from the ${storeLabel(store)}: ${why} Re-import the key or fix the ${storeLabel(store)}.`,
    };
  }
  if (stored === null) {
    return {
      ok: false,
      reason: 'missing',
      message: `No private key is stored for this connection in the ${storeLabel(store)}. Import the app's private key.`,
    };
  }
  try {
    parseRsaPrivateKeyPem(stored);
  } catch (error) {
    const why = error instanceof InvalidPrivateKeyError ? error.message : 'it could not be validated.';
    return { ok: false, reason: 'invalid', message: `The stored private key is not usable: ${why} Re-import the key.` };
  }
  return { ok: true, pem: stored };
}

function storeLabel(store: SecretStore): string {
  switch (store.kind) {
    case 'keychain':
      return 'OS keychain';
    case 'encrypted-file':
      return 'encrypted secrets file';
    default:
      return 'secret store';
  }
}
