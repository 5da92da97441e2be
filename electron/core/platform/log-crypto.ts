// Node's SHA-256 and Ed25519 for the transparency log's checks: the registry's own (checkpoints,
// verify-log, the standalone verifier) and the desk's at every sync. shared/transparency/ takes them
// as parameters so that it stays free of Node; both products take them from here.
import { hash, verify } from 'node:crypto';

/** One-shot hashing (no Hash object per call): a desk's first sync hashes every leaf and node of the log. */
export const sha256 = (data: Uint8Array): Uint8Array => hash('sha256', data, 'buffer');

/**
 * The bytes of a padded standard base64 string, undefined when it is not one: the same answer as
 * shared/transparency/bytes.ts fromBase64, decoded by Node. A desk's first sync decodes every leaf
 * of the log (~281,000 at --scale 100): 0.70-0.84 s of its replay's thread through the table lookup
 * per character in JavaScript, 0.25-0.27 s here (a regular expression checking the text first cost
 * 0.65 s by itself).
 */
export function base64Bytes(text: string): Uint8Array | undefined {
  // Node also takes the URL-safe alphabet's two characters
  if (text.length % 4 !== 0 || text.includes('-') || text.includes('_')) return undefined;
  const pad = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const bytes = Buffer.from(text, 'base64');
  // Node passes over (or stops at) any other character that is not base64, and padding elsewhere
  // than at the end: each leaves fewer bytes than the text's length says.
  return bytes.length === (text.length / 4) * 3 - pad ? bytes : undefined;
}

/** Checks a signature from a raw 32-byte public key (as a note verifier key carries it). */
export function verifyEd25519(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  try {
    const key = { key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(publicKey).toString('base64url') }, format: 'jwk' } as const;
    return verify(null, message, key, signature);
  } catch {
    return false;
  }
}
