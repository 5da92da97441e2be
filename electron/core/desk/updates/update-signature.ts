// Ed25519 signatures over the update manifest (latest-linux.yml, latest.yml, latest-mac.yml), as
// Signal signs its releases: the manifest names each installer with its SHA-512, so one signature
// from the release key covers the version and every byte of the installers. electron-updater alone
// trusts whatever the update server sends (checksums prove nothing when the server is the
// attacker). The signature file sits beside the manifest: `<manifest>.sig`, JSON { keyId, signature }.
import { createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { z } from 'zod';

export const signatureFile = z.object({
  /** The first 16 hex digits of the SHA-256 of the public key (SPKI DER): which key signed. */
  keyId: z.string().regex(/^[0-9a-f]{16}$/, 'keyId must be 16 lowercase hex digits'),
  /** The Ed25519 signature of the manifest's exact bytes, base64. */
  signature: z.string().regex(/^[A-Za-z0-9+/]+={0,2}$/, 'signature must be base64'),
});
export type SignatureFile = z.infer<typeof signatureFile>;

export function keyIdOf(publicKey: KeyObject | string): string {
  const key = typeof publicKey === 'string' ? createPublicKey(publicKey) : publicKey;
  return createHash('sha256')
    .update(key.export({ type: 'spki', format: 'der' }))
    .digest('hex')
    .slice(0, 16);
}

/** The `.sig` file's text for `manifest`, signed with the release's private key (scripts/sign-update.ts). */
export function signManifest(manifest: Buffer, privateKey: KeyObject): string {
  const signature = sign(null, manifest, privateKey).toString('base64');
  return `${JSON.stringify({ keyId: keyIdOf(createPublicKey(privateKey)), signature } satisfies SignatureFile)}\n`;
}

export type SignatureCheck = { ok: true } | { ok: false; reason: 'unsigned' | 'wrong-key' | 'tampered' };

/** Whether `signatureText` is the pinned key's signature of exactly `manifest`. */
export function checkManifestSignature(manifest: Buffer, signatureText: string | undefined, pinnedKey: string): SignatureCheck {
  if (signatureText === undefined) return { ok: false, reason: 'unsigned' };
  let parsed: SignatureFile;
  try {
    parsed = signatureFile.parse(JSON.parse(signatureText));
  } catch {
    return { ok: false, reason: 'unsigned' };
  }
  const key = createPublicKey(pinnedKey);
  if (parsed.keyId !== keyIdOf(key)) return { ok: false, reason: 'wrong-key' };
  return verify(null, manifest, key, Buffer.from(parsed.signature, 'base64')) ? { ok: true } : { ok: false, reason: 'tampered' };
}
