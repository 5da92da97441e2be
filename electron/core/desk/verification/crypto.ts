// Node's SHA-256 and Ed25519 for the desk's log checks (shared/transparency/ takes them as
// parameters: it stays free of Node). The registry has its own copies; the desk may not import them.
import { createHash, verify } from 'node:crypto';

export const sha256 = (data: Uint8Array): Uint8Array => new Uint8Array(createHash('sha256').update(data).digest());

export function verifyEd25519(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  try {
    const key = { key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(publicKey).toString('base64url') }, format: 'jwk' } as const;
    return verify(null, message, key, signature);
  } catch {
    return false;
  }
}
