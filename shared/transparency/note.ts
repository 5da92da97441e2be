// Signed notes and checkpoints in the text formats of C2SP's `signed-note` and `tlog-checkpoint`
// (docs/transparency.md), so the registry's checkpoints read in any verifier of those formats:
//
//   <origin>\n<tree size in decimal>\n<base64 root hash>\n[extension lines]\n
//   \n
//   — <key name> <base64(4-byte key hash ‖ 64-byte Ed25519 signature)>\n
//
// The signature covers the body (everything before the blank line, its last newline included). The
// key hash is the first 4 bytes of SHA-256(name ‖ "\n" ‖ 0x01 ‖ public key), 0x01 naming Ed25519.
// Ed25519 itself is the caller's (Node's crypto on the registry and the desk): this file stays ES-only.
import { concatBytes, equalBytes, fromBase64, toBase64, toHex, utf8 } from './bytes';
import { sha256 } from './sha256';

export const ED25519_ALGORITHM = 0x01;
const DASH = '\u2014';

export type VerifySignature = (publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array) => boolean;

export function keyHash(name: string, publicKey: Uint8Array): Uint8Array {
  return sha256(concatBytes(utf8(`${name}\n`), Uint8Array.of(ED25519_ALGORITHM), publicKey)).subarray(0, 4);
}

/** The note verifier key: `<name>+<hex key hash>+<base64(0x01 ‖ public key)>`. */
export function formatVerifierKey(name: string, publicKey: Uint8Array): string {
  return `${name}+${toHex(keyHash(name, publicKey))}+${toBase64(concatBytes(Uint8Array.of(ED25519_ALGORITHM), publicKey))}`;
}

export interface VerifierKey {
  name: string;
  keyHash: Uint8Array;
  publicKey: Uint8Array;
}

/** A verifier key's parts, or a reason it is not one (its hash must match its name and key). */
export function parseVerifierKey(text: string): VerifierKey | { error: string } {
  const match = /^([^+\s]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/=]+)$/.exec(text.trim());
  const raw = match ? fromBase64(match[3]!) : undefined;
  if (!match || !raw || raw.length !== 33 || raw[0] !== ED25519_ALGORITHM) return { error: 'not an Ed25519 note verifier key' };
  const publicKey = raw.subarray(1);
  if (toHex(keyHash(match[1]!, publicKey)) !== match[2]) return { error: 'the key hash does not match the name and key' };
  return { name: match[1]!, keyHash: keyHash(match[1]!, publicKey), publicKey };
}

export interface Checkpoint {
  origin: string;
  size: number;
  root: Uint8Array;
  /** Extension lines (this registry writes `time <ISO 8601>`). */
  extensions: string[];
}

export function checkpointBody(c: Checkpoint): string {
  return [c.origin, String(c.size), toBase64(c.root), ...c.extensions].join('\n') + '\n';
}

export function parseCheckpointBody(body: string): Checkpoint | { error: string } {
  const lines = body.split('\n');
  if (lines.pop() !== '') return { error: 'the checkpoint body must end with a newline' };
  const [origin, size, root, ...extensions] = lines;
  if (!origin || !size || !root) return { error: 'a checkpoint has an origin, a size and a root hash line' };
  if (!/^(?:0|[1-9][0-9]{0,15})$/.test(size) || !Number.isSafeInteger(Number(size)))
    return { error: 'the tree size is not a decimal number' };
  const rootBytes = fromBase64(root);
  if (!rootBytes || rootBytes.length !== 32) return { error: 'the root hash is not 32 bytes of base64' };
  if (extensions.some((l) => l === '')) return { error: 'an empty extension line' };
  return { origin, size: Number(size), root: rootBytes, extensions };
}

/** The time a checkpoint states in its `time` extension line (epoch ms), if any. */
export function checkpointTime(c: Checkpoint): number | undefined {
  const line = c.extensions.find((l) => l.startsWith('time '));
  const ms = line ? Date.parse(line.slice(5)) : NaN;
  return Number.isFinite(ms) ? ms : undefined;
}

export function formatSignedNote(body: string, name: string, publicKey: Uint8Array, signature: Uint8Array): string {
  return `${body}\n${DASH} ${name} ${toBase64(concatBytes(keyHash(name, publicKey), signature))}\n`;
}

/**
 * The note's body when a signature line of `key` verifies over it; otherwise why not. Signature
 * lines of other keys are ignored, as the format says.
 */
export function openSignedNote(text: string, key: VerifierKey, verify: VerifySignature): { body: string } | { error: string } {
  const split = text.lastIndexOf('\n\n');
  if (split < 0 || !text.endsWith('\n')) return { error: 'not a signed note (no blank line before the signatures)' };
  const body = text.slice(0, split + 1);
  const lines = text.slice(split + 2, -1).split('\n');
  let sawKey = false;
  for (const line of lines) {
    const match = new RegExp(`^${DASH} (\\S+) ([A-Za-z0-9+/=]+)$`).exec(line);
    if (!match) return { error: 'a malformed signature line' };
    const bytes = fromBase64(match[2]!);
    if (match[1] !== key.name || !bytes || bytes.length !== 68 || !equalBytes(bytes.subarray(0, 4), key.keyHash)) continue;
    sawKey = true;
    if (verify(key.publicKey, utf8(body), bytes.subarray(4))) return { body };
  }
  return { error: sawKey ? 'the signature does not verify with the pinned key' : `no signature by the key ${key.name}` };
}
