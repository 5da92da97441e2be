// The registry's checkpoint signing key: Ed25519, created at first start and kept in the database
// (table tlog_key) with the rest of the registry's identity, so a backup (the data folder's copy,
// pg_dump) carries it and every process of a PostgreSQL registry signs with the same key. The
// private key never leaves this module: not in logs, answers or errors.
import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { formatVerifierKey, keyHash } from '@shared/transparency/note';
import type { Kysely } from 'kysely';
import type { RegistryContext } from '../context';
import type { RegistryTables } from '../schema';

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

type Q = Kysely<RegistryTables>;
const storedKey = (_v: Record<string, never>, q: Q) => q.selectFrom('tlog_key').select(['name', 'private_key']).where('one', '=', 1);
const insertKey = (v: { name: string; public_key: string; private_key: string; created_at: number }, q: Q) =>
  q
    .insertInto('tlog_key')
    .values({ one: 1, name: v.name, public_key: v.public_key, private_key: v.private_key, created_at: v.created_at })
    .onConflict((oc) => oc.column('one').doNothing());

/** The log's key, created on first use (several processes at once agree on the first one stored). */
export function logKey(ctx: RegistryContext): LogKey {
  const cached = keys.get(ctx.db);
  if (cached) return cached;
  const read = () => ctx.db.prepared(storedKey).first({});
  let row = read();
  if (!row) {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const name = `${originHost(ctx)}/transparency/${randomBytes(4).toString('hex')}`;
    ctx.db.transaction(() =>
      ctx.db.prepared(insertKey).run({
        name,
        public_key: Buffer.from(rawPublicKey(publicKey)).toString('base64'),
        private_key: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
        created_at: ctx.clock.now(),
      }),
    );
    row = read()!;
  }
  const key = loadKey(row.name, row.private_key);
  keys.set(ctx.db, key);
  return key;
}
