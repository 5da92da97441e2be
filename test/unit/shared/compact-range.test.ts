// The right frontier against the full tree of RFC 9162 (merkle.ts, itself checked against the RFC's
// definitions): the same root at every size, however the leaves are split between restores.
import { describe, expect, it } from 'vitest';
import { toBase64, utf8 } from '@shared/transparency/bytes';
import { CompactRange } from '@shared/transparency/compact-range';
import { leafHash, MerkleTree, verifyInclusion } from '@shared/transparency/merkle';
import { LogVerificationError, replayLog, type Get } from '@shared/transparency/verifier';

describe('the compact range', () => {
  it('gives the tree root at every size from 0 to 300', () => {
    const tree = new MerkleTree();
    const range = CompactRange.empty();
    expect(toBase64(range.root())).toBe(toBase64(tree.root()));
    for (let i = 0; i < 300; i++) {
      const data = utf8(`leaf ${i}`);
      tree.append(data);
      range.appendLeafHash(leafHash(data));
      expect(toBase64(range.root()), `size ${i + 1}`).toBe(toBase64(tree.root()));
      expect(range.frontier().length).toBe((i + 1).toString(2).replace(/0/g, '').length);
    }
  });

  it('continues from a kept frontier, and refuses one of the wrong length', () => {
    const tree = new MerkleTree();
    let range = CompactRange.empty();
    for (let i = 0; i < 100; i++) {
      const data = utf8(`leaf ${i}`);
      tree.append(data);
      range.appendLeafHash(leafHash(data));
      if (i % 7 === 3) range = CompactRange.restore(range.size, range.frontier())!;
    }
    expect(toBase64(range.root())).toBe(toBase64(tree.root()));
    expect(CompactRange.restore(100, range.frontier().slice(1))).toBeUndefined();
    expect(CompactRange.restore(-1, [])).toBeUndefined();
  });

  it("replays a served log (npm run verify's replayLog) to the full tree's root and leaf hashes", async () => {
    const data = Array.from({ length: 300 }, (_, i) => utf8(`leaf ${i}`));
    const tree = new MerkleTree();
    for (const d of data) tree.append(d);
    // the log's leaves endpoint, in pages of at most 64, from a list a test may change
    const serve =
      (leaves: Uint8Array[]): Get =>
      async (path) => {
        const query = new URL(path, 'http://registry').searchParams;
        const start = Number(query.get('start'));
        const end = Math.min(Number(query.get('end')), start + 64);
        const page = leaves.slice(start, end).map((d, i) => ({ index: start + i, data: toBase64(d), kind: 'audit', id: String(i) }));
        return { status: 200, text: JSON.stringify({ leaves: page }) };
      };
    const checkpoint = { size: data.length, root: toBase64(tree.root()), note: 'note' };
    const { root, leafHashes } = await replayLog(serve(data), checkpoint, undefined, [0, 150, 299, 300]);
    expect(toBase64(root)).toBe(checkpoint.root);
    // the kept hashes are the tree's, and its inclusion proofs verify against them (index 300 is past the end)
    expect([...leafHashes.keys()].sort((a, b) => a - b)).toEqual([0, 150, 299]);
    for (const [index, hash] of leafHashes) {
      expect(toBase64(hash)).toBe(toBase64(tree.leafHashAt(index)));
      expect(verifyInclusion(index, data.length, hash, tree.inclusionProof(index, data.length), tree.root())).toBe(true);
    }
    // one leaf changed after it was logged: the signed root is not given
    const changed = data.map((d, i) => (i === 200 ? utf8('leaf 200, changed') : d));
    const refused = await replayLog(serve(changed), checkpoint).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(LogVerificationError);
    expect((refused as LogVerificationError).kind).toBe('replay');
  });
});
