// Node's SHA-256 and Ed25519 for the transparency log's checks: the registry's own (checkpoints,
// verify-log, the standalone verifier) and the desk's at every sync. shared/transparency/ takes them
// as parameters so that it stays free of Node; both products take them from here.
import { hash, verify } from 'node:crypto';

/** One-shot hashing (no Hash object per call): a desk's first sync hashes every leaf and node of the log. */
export const sha256 = (data: Uint8Array): Uint8Array => hash('sha256', data, 'buffer');

/** Checks a signature from a raw 32-byte public key (as a note verifier key carries it). */
export function verifyEd25519(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  try {
    const key = { key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(publicKey).toString('base64url') }, format: 'jwk' } as const;
    return verify(null, message, key, signature);
  } catch {
    return false;
  }
}
