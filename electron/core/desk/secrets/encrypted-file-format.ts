// The on-disk format of the encrypted secrets file and its cryptography, without any file I/O.
//
//   { v: 1, kdf: { name: 'scrypt', N, r, p, salt }, check, iv, tag, data }   (binary fields base64)
//
// scrypt turns the passphrase into 64 bytes: the first 32 are the AES-256-GCM key, the other 32
// yield `check`, a passphrase verifier. `check` is what lets us say "wrong passphrase" rather than
// "file damaged": GCM alone cannot tell the two apart. The salt is random per file and kept across
// rewrites (so the derived key can be cached); the IV is random for every write. The header
// (v, kdf, check) is bound to the ciphertext as GCM additional data, so changing it is detected.
import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  randomBytes,
  scrypt as scryptCallback,
  timingSafeEqual,
  type ScryptOptions,
} from 'node:crypto';
import { z } from 'zod';
import { SecretFileTamperedError, SecretFileUnreadableError, WrongPassphraseError } from './errors';

export const FORMAT_VERSION = 1;
/**
 * New files (and every file on its next write): 2^17, OWASP's floor for scrypt; 128 MiB and a
 * noticeable pause once per file open. Files written with 2^15 or 2^16 by earlier desks still open.
 */
export const DEFAULT_SCRYPT = { N: 2 ** 17, r: 8, p: 1 } as const;
const MIN_N = 2 ** 15;
// A file from elsewhere must not be able to make us allocate gigabytes: cap what we accept.
const MAX_N = 2 ** 20;
const SALT_BYTES = 16;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const CHECK_LABEL = 'registry-desk secrets file v1: passphrase check';

const base64Of = (bytes: number) =>
  z
    .string()
    .regex(/^[A-Za-z0-9+/]*={0,2}$/)
    .refine((text) => Buffer.from(text, 'base64').length === bytes);

/** scrypt's cost parameters: what a file may hold, and what a store may be asked to write. */
export const scryptCostSchema = z.strictObject({
  N: z
    .number()
    .int()
    .min(MIN_N)
    .max(MAX_N)
    .refine((n) => (n & (n - 1)) === 0, 'N must be a power of two'),
  r: z.number().int().min(8).max(32),
  p: z.number().int().min(1).max(4),
});
export type ScryptCost = z.infer<typeof scryptCostSchema>;

const kdfSchema = z.strictObject({ name: z.literal('scrypt'), ...scryptCostSchema.shape, salt: base64Of(SALT_BYTES) });
export type KdfParams = z.infer<typeof kdfSchema>;

const fileSchema = z.strictObject({
  v: z.literal(FORMAT_VERSION),
  kdf: kdfSchema,
  check: base64Of(32),
  iv: base64Of(IV_BYTES),
  tag: base64Of(TAG_BYTES),
  data: z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/),
});
type SecretsFile = z.infer<typeof fileSchema>;

const contentSchema = z.strictObject({ secrets: z.record(z.string(), z.string()) });
export type SecretsContent = z.infer<typeof contentSchema>;

export interface DerivedKeys {
  readonly kdf: KdfParams;
  readonly encryptionKey: Buffer;
  readonly check: Buffer;
}

export function newKdfParams(cost: ScryptCost = DEFAULT_SCRYPT): KdfParams {
  return { name: 'scrypt', N: cost.N, r: cost.r, p: cost.p, salt: randomBytes(SALT_BYTES).toString('base64') };
}

/** Whether a file's KDF is weaker than what new files get, so its next write re-derives the key. */
export function isOutdatedKdf(kdf: KdfParams, cost: ScryptCost = DEFAULT_SCRYPT): boolean {
  return kdf.N < cost.N || kdf.r < cost.r || kdf.p < cost.p;
}

export async function deriveKeys(passphrase: string, kdf: KdfParams): Promise<DerivedKeys> {
  const output = await scrypt(passphrase, Buffer.from(kdf.salt, 'base64'), 64, {
    N: kdf.N,
    r: kdf.r,
    p: kdf.p,
    // Node's default limit (32 MiB) is exactly scrypt's need at N=2^15, r=8 and rejects it.
    maxmem: 256 * kdf.N * kdf.r,
  });
  const encryptionKey = Buffer.from(output.subarray(0, 32));
  const check = createHmac('sha256', output.subarray(32)).update(CHECK_LABEL).digest();
  output.fill(0);
  return { kdf, encryptionKey, check };
}

function scrypt(passphrase: string, salt: Buffer, length: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCallback(passphrase, salt, length, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** Reads the header of a file's text; throws the typed error a user should see when it is not one. */
export function parseSecretsFile(text: string, file: string): SecretsFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new SecretFileTamperedError(file, 'it is not valid JSON');
  }
  if (typeof json === 'object' && json !== null && 'v' in json && json.v !== FORMAT_VERSION) {
    throw new SecretFileUnreadableError(
      `The secrets file ${file} has format version ${String(json.v)}; this desk reads version ${FORMAT_VERSION}. Update the desk.`,
    );
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    const where = parsed.error.issues.map((issue) => issue.path.join('.') || 'file').join(', ');
    throw new SecretFileTamperedError(file, `invalid fields: ${where}`);
  }
  return parsed.data;
}

export function encryptSecrets(content: SecretsContent, keys: DerivedKeys): string {
  const iv = randomBytes(IV_BYTES);
  const header = headerOf(keys.kdf, keys.check.toString('base64'));
  const cipher = createCipheriv('aes-256-gcm', keys.encryptionKey, iv);
  cipher.setAAD(additionalData(header));
  const plaintext = Buffer.from(JSON.stringify(content), 'utf8');
  const data = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  plaintext.fill(0);
  const file: SecretsFile = {
    ...header,
    iv: iv.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
    data: data.toString('base64'),
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}

export function verifyPassphrase(parsed: SecretsFile, keys: DerivedKeys, file: string): void {
  const expected = Buffer.from(parsed.check, 'base64');
  if (expected.length !== keys.check.length || !timingSafeEqual(expected, keys.check)) throw new WrongPassphraseError(file);
}

export function decryptSecrets(parsed: SecretsFile, keys: DerivedKeys, file: string): SecretsContent {
  verifyPassphrase(parsed, keys, file);
  const decipher = createDecipheriv('aes-256-gcm', keys.encryptionKey, Buffer.from(parsed.iv, 'base64'));
  decipher.setAAD(additionalData(headerOf(parsed.kdf, parsed.check)));
  decipher.setAuthTag(Buffer.from(parsed.tag, 'base64'));
  let plaintext: Buffer;
  try {
    plaintext = Buffer.concat([decipher.update(Buffer.from(parsed.data, 'base64')), decipher.final()]);
  } catch {
    throw new SecretFileTamperedError(file, 'the encrypted content failed authentication');
  }
  try {
    const content = contentSchema.safeParse(JSON.parse(plaintext.toString('utf8')));
    if (!content.success) throw new SecretFileTamperedError(file, 'the decrypted content has an unexpected shape');
    return content.data;
  } catch (error) {
    if (error instanceof SecretFileTamperedError) throw error;
    throw new SecretFileTamperedError(file, 'the decrypted content is not valid JSON');
  } finally {
    plaintext.fill(0);
  }
}

function headerOf(kdf: KdfParams, check: string): Pick<SecretsFile, 'v' | 'kdf' | 'check'> {
  // Fixed key order, so the additional data is the same bytes on write and on read.
  return { v: FORMAT_VERSION, kdf: { name: kdf.name, N: kdf.N, r: kdf.r, p: kdf.p, salt: kdf.salt }, check };
}

function additionalData(header: Pick<SecretsFile, 'v' | 'kdf' | 'check'>): Buffer {
  return Buffer.from(JSON.stringify(header), 'utf8');
}
