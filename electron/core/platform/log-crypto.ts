// Ed25519 signature checks with Node's crypto, from a raw 32-byte public key (as a note verifier
// key carries it): the registry's own check, the standalone verifier and the desk.
import { verify } from 'node:crypto';

export function verifyEd25519(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  try {
    const key = { key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(publicKey).toString('base64url') }, format: 'jwk' } as const;
    return verify(null, message, key, signature);
  } catch {
    return false;
  }
}
