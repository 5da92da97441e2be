// The log's Merkle tree, kept in memory per open database and brought up to the committed leaves
// before each use (other processes of a PostgreSQL registry append too): the stored leaf hashes are
// read once, so a root or a proof costs O(log² n) hashes. Never sync inside a transaction that
// appended leaves: they could still roll back.
import { createHash } from 'node:crypto';
import { MerkleTree } from '../../../../shared/transparency/merkle';
import type { RegistryContext } from '../context';

export const nodeSha256 = (data: Uint8Array): Uint8Array => new Uint8Array(createHash('sha256').update(data).digest());

const trees = new WeakMap<object, MerkleTree>();
const BATCH = 50_000;

export function logSize(ctx: RegistryContext): number {
  return Number((ctx.db.prepare('SELECT size FROM tlog_head WHERE one = 1').get() as { size: number }).size);
}

/** The tree holding every leaf committed so far. */
export function syncedTree(ctx: RegistryContext): MerkleTree {
  let tree = trees.get(ctx.db);
  if (!tree) trees.set(ctx.db, (tree = new MerkleTree(nodeSha256)));
  const size = logSize(ctx);
  while (tree.size < size) {
    const rows = ctx.db
      .prepare('SELECT idx, hash FROM tlog_leaves WHERE idx >= ? AND idx < ? ORDER BY idx')
      .all(tree.size, Math.min(size, tree.size + BATCH)) as { idx: number; hash: string }[];
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
