// The log's Merkle tree, kept in memory per open database and brought up to the committed leaves
// before each use (other processes of a PostgreSQL registry append too): the stored leaf hashes are
// read once, so a root or a proof costs O(log² n) hashes. Never sync inside a transaction that
// appended leaves: they could still roll back.
import { sha256 } from '@platform/log-crypto';
import { MerkleTree } from '@shared/transparency/merkle';
import { sql, type Kysely } from 'kysely';
import type { RegistryContext } from '../context';
import { hasLogAppendFunction } from '../schema-probe';
import type { RegistryTables } from '../schema';

const trees = new WeakMap<object, MerkleTree>();
const BATCH = 50_000;

// PostgreSQL: the head row, moved by each append under its lock. SQLite: the largest index + 1,
// the log having no head row there (migration 0018); an empty log has size 0.
const headSize = (_v: Record<string, never>, q: Kysely<RegistryTables>) => q.selectFrom('tlog_head').select('size').where('one', '=', 1);
const leavesEnd = (_v: Record<string, never>, q: Kysely<RegistryTables>) =>
  q.selectFrom('tlog_leaves').select(sql<number>`COALESCE(MAX(idx) + 1, 0)`.as('size'));
const sizeQuery = (ctx: RegistryContext) => (ctx.db.engine === 'postgres' ? headSize : leavesEnd);

/** PostgreSQL keeps a leaf's hash as its 32 bytes from migration 0020 on (which also added tlog_append). */
const hashesAreBytes = hasLogAppendFunction;
const HEX_OF_BYTES = sql<string>`encode(hash, 'hex')`.as('hash');
/** The leaves' `hash` column as hex on either engine and schema (SQLite keeps hex). */
export const leafHashHexColumn = (ctx: RegistryContext) => (hashesAreBytes(ctx) ? HEX_OF_BYTES : sql<string>`hash`.as('hash'));
const leafHashes = (v: { from: number; to: number }, q: Kysely<RegistryTables>) =>
  q.selectFrom('tlog_leaves').select(['idx', 'hash']).where('idx', '>=', v.from).where('idx', '<', v.to).orderBy('idx');
const leafHashesFromBytes = (v: { from: number; to: number }, q: Kysely<RegistryTables>) =>
  q.selectFrom('tlog_leaves').select(['idx', HEX_OF_BYTES]).where('idx', '>=', v.from).where('idx', '<', v.to).orderBy('idx');

export function logSize(ctx: RegistryContext): number {
  const head = ctx.db.prepared(sizeQuery(ctx)).first({});
  if (!head) throw new Error('the transparency log has no head row (migration 0014)');
  return Number(head.size);
}

/** logSize, read without holding the process (SyncDatabase.allAsync): for the checkpoint timer. */
export async function logSizeAsync(ctx: RegistryContext): Promise<number> {
  const [head] = await ctx.db.prepared(sizeQuery(ctx)).allAsync({});
  if (!head) throw new Error('the transparency log has no head row (migration 0014)');
  return Number(head.size);
}

/** The tree holding every leaf committed so far. */
export function syncedTree(ctx: RegistryContext): MerkleTree {
  let tree = trees.get(ctx.db);
  if (!tree) trees.set(ctx.db, (tree = new MerkleTree(sha256)));
  const size = logSize(ctx);
  while (tree.size < size) {
    const rows = ctx.db
      .prepared(hashesAreBytes(ctx) ? leafHashesFromBytes : leafHashes)
      .all({ from: tree.size, to: Math.min(size, tree.size + BATCH) });
    if (rows.length === 0) throw new Error(`the transparency log has no leaf ${tree.size} below its size ${size}`);
    for (const row of rows) {
      if (Number(row.idx) !== tree.size) throw new Error(`the transparency log has a gap at leaf ${tree.size}`);
      tree.appendLeafHash(Uint8Array.from(Buffer.from(row.hash, 'hex')));
    }
  }
  return tree;
}

/** Forgets the cached tree (a test that rewrites rows behind the registry's back). */
export function forgetTree(ctx: RegistryContext): void {
  trees.delete(ctx.db);
}
