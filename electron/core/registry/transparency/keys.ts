// The registry's checkpoint signing key: Ed25519, created at first start and kept in the database
// (table tlog_key) with the rest of the registry's identity, so a backup (the data folder's copy,
// pg_dump) carries it and every process of a PostgreSQL registry signs with the same key. The
// private key never leaves this module: not in logs, answers or errors.
import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { formatVerifierKey, keyHash } from '../../../../shared/transparency/note';
import type { RegistryContext } from '../context';

export interface LogKey {
  /** The key name, also the log's origin line: `<public host>/transparency/<8 random hex>`. */
  name: string;
  publicKey: Uint8Array;
  keyHash: Uint8Array;
  verifierKey: string;
  sign(message: Uint8Array): Uint8Array;
}

const keys = new WeakMap<object, LogKey>();

/** The public key's 32 raw bytes (the tail of its SPKI DER). */
export const rawPublicKey = (key: KeyObject): Uint8Array => new Uint8Array(key.export({ format: 'der', type: 'spki' }).subarray(-32));

function loadKey(name: string, privateDer: string): LogKey {
  const privateKey = createPrivateKey({ key: Buffer.from(privateDer, 'base64'), format: 'der', type: 'pkcs8' });
  const publicKey = rawPublicKey(createPublicKey(privateKey));
  return {
    name,
    publicKey,
    keyHash: keyHash(name, publicKey),
    verifierKey: formatVerifierKey(name, publicKey),
    sign: (message) => new Uint8Array(sign(null, message, privateKey)),
  };
}

function originHost(ctx: RegistryContext): string {
  try {
    return new URL(ctx.urls.publicBaseUrl).host || 'registry';
  } catch {
    return 'registry';
  }
}

/** The log's key, created on first use (several processes at once agree on the first one stored). */
export function logKey(ctx: RegistryContext): LogKey {
  const cached = keys.get(ctx.db);
  if (cached) return cached;
  const read = () =>
    ctx.db.prepare('SELECT name, private_key FROM tlog_key WHERE one = 1').get() as { name: string; private_key: string } | undefined;
  let row = read();
  if (!row) {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const name = `${originHost(ctx)}/transparency/${randomBytes(4).toString('hex')}`;
    ctx.db.transaction(() =>
      ctx.db
        .prepare(
          'INSERT INTO tlog_key (one, name, public_key, private_key, created_at) VALUES (1, ?, ?, ?, ?) ON CONFLICT (one) DO NOTHING',
        )
        .run(
          name,
          Buffer.from(rawPublicKey(publicKey)).toString('base64'),
          privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
          ctx.clock.now(),
        ),
    );
    row = read()!;
  }
  const key = loadKey(row.name, row.private_key);
  keys.set(ctx.db, key);
  return key;
}
