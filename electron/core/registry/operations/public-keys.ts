// The public keys apps and operators sign their tokens with (RS256): one check for both, so the two
// cannot drift apart in what they take or in how a refusal reads.
import { createPublicKey } from 'node:crypto';
import { MIN_RSA_KEY_BITS } from '@shared/registry/operator-fields';
import { badRequest } from '../errors';

/**
 * `pem` as SPKI PEM when it is an RSA public key of at least MIN_RSA_KEY_BITS; otherwise a 400
 * naming `field` and saying why (`signers`: who signs with it, "apps" or "operators").
 */
export function rsaPublicKeyPem(pem: string, signers: 'apps' | 'operators', field = 'publicKeyPem'): string {
  let key;
  try {
    key = createPublicKey(pem);
  } catch {
    throw badRequest(`${field}: not a PEM public key`);
  }
  if (key.asymmetricKeyType !== 'rsa') throw badRequest(`${field}: ${signers} sign with RS256, so the key must be RSA`);
  if ((key.asymmetricKeyDetails?.modulusLength ?? 0) < MIN_RSA_KEY_BITS)
    throw badRequest(`${field}: RSA keys must be at least ${MIN_RSA_KEY_BITS} bits`);
  return key.export({ type: 'spki', format: 'pem' }).toString();
}
