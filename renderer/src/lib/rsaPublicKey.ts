// What a pasted or chosen PEM public key is, read in the page before the registry is asked: the
// registry takes RSA keys of 2048 bits or more only, and a 1024-bit or an Ed25519 key passed the
// desk's review and was refused only once sent. The page reads the key's DER (SubjectPublicKeyInfo)
// far enough to find its algorithm and the RSA modulus' length; the registry still checks it all.
import { MIN_RSA_KEY_BITS } from '@shared/registry/operator-fields';

export type PublicKeyKind = { kind: 'rsa'; bits: number } | { kind: 'other' } | { kind: 'unreadable' };

/** rsaEncryption, 1.2.840.113549.1.1.1, as DER content bytes. */
const RSA_OID = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01];

/** One DER element at `at`: its tag, where its content starts and ends; null when cut short. */
function element(der: Uint8Array, at: number): { tag: number; start: number; end: number } | null {
  if (at + 2 > der.length) return null;
  const tag = der[at]!;
  let length = der[at + 1]!;
  let start = at + 2;
  if (length & 0x80) {
    const bytes = length & 0x7f;
    if (bytes === 0 || bytes > 3 || start + bytes > der.length) return null;
    length = 0;
    for (let i = 0; i < bytes; i++) length = length * 256 + der[start + i]!;
    start += bytes;
  }
  return start + length <= der.length ? { tag, start, end: start + length } : null;
}

function derOf(pem: string): Uint8Array | null {
  const match = /-----BEGIN PUBLIC KEY-----([\s\S]*?)-----END PUBLIC KEY-----/.exec(pem);
  if (!match) return null;
  try {
    return Uint8Array.from(atob(match[1]!.replace(/\s+/g, '')), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

/** The kind of key a "-----BEGIN PUBLIC KEY-----" PEM holds, and an RSA key's size in bits. */
export function publicKeyKind(pem: string): PublicKeyKind {
  const der = derOf(pem);
  const spki = der && element(der, 0);
  const algorithm = spki?.tag === 0x30 ? element(der!, spki.start) : null;
  const oid = algorithm?.tag === 0x30 ? element(der!, algorithm.start) : null;
  const bitString = algorithm ? element(der!, algorithm.end) : null;
  if (!der || !oid || oid.tag !== 0x06 || bitString?.tag !== 0x03) return { kind: 'unreadable' };
  const oidBytes = der.subarray(oid.start, oid.end);
  if (oidBytes.length !== RSA_OID.length || RSA_OID.some((b, i) => oidBytes[i] !== b)) return { kind: 'other' };
  // The bit string's first byte counts unused bits; then RSAPublicKey: SEQUENCE { modulus, exponent }.
  const rsaKey = element(der, bitString.start + 1);
  const modulus = rsaKey?.tag === 0x30 ? element(der, rsaKey.start) : null;
  if (!modulus || modulus.tag !== 0x02) return { kind: 'unreadable' };
  let first = modulus.start;
  while (first < modulus.end - 1 && der[first] === 0) first++;
  const bits = (modulus.end - first) * 8 - Math.clz32(der[first]!) + 24;
  return { kind: 'rsa', bits };
}

/** Why the registry would refuse this PEM public key, in the form's words; null when it is an RSA key it takes. */
export function publicKeyProblem(pem: string): string | null {
  const key = publicKeyKind(pem);
  if (key.kind === 'unreadable')
    return 'This public key cannot be read: paste the whole PEM text, from -----BEGIN PUBLIC KEY----- to -----END PUBLIC KEY-----.';
  if (key.kind === 'other') return 'This is not an RSA key (an Ed25519 or EC key, for example): the registry takes RSA keys only.';
  if (key.bits < MIN_RSA_KEY_BITS) return `This RSA key has ${key.bits} bits; the registry takes ${MIN_RSA_KEY_BITS} bits or more.`;
  return null;
}
