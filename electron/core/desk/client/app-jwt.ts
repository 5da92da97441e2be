// The app proves itself to the registry with a short RS256 JWT signed by its private key
// (compatibility.md: iss = app id, iat = now - 60 to absorb clock skew, exp = now + 600).
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import type { Clock } from '@platform/clock';
import { RegistryClientError } from './errors';

/** Returns the key each time it is needed; a PEM string is turned into a KeyObject and dropped. */
export type PrivateKeyLoader = () => Promise<KeyObject | string>;

export const JWT_BACKDATE_S = 60;
export const JWT_LIFETIME_S = 600;

async function loadKey(loadPrivateKey: PrivateKeyLoader): Promise<KeyObject> {
  let loaded: KeyObject | string;
  try {
    loaded = await loadPrivateKey();
  } catch (error) {
    // The loader's message may describe the store (keychain locked...), never the key itself.
    const reason = error instanceof Error ? error.message : 'unknown reason';
    throw new RegistryClientError('key_unavailable', `The app's private key could not be read: ${reason}`);
  }
  if (typeof loaded !== 'string') return loaded;
  try {
    return createPrivateKey(loaded);
  } catch {
    // Never echo the PEM (or OpenSSL's view of it) into an error.
    throw new RegistryClientError('key_unavailable', "The app's private key is not a valid PEM private key");
  }
}

export async function mintAppJwt(options: { appId: string; clock: Clock; loadPrivateKey: PrivateKeyLoader }): Promise<string> {
  const key = await loadKey(options.loadPrivateKey);
  if (key.type !== 'private' || key.asymmetricKeyType !== 'rsa') {
    throw new RegistryClientError('key_unavailable', "The app's private key must be an RSA private key (RS256)");
  }
  const nowS = Math.floor(options.clock.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .setIssuer(options.appId)
    .setIssuedAt(nowS - JWT_BACKDATE_S)
    .setExpirationTime(nowS + JWT_LIFETIME_S)
    .sign(key);
}
