// The right frontier against the full tree of RFC 9162 (merkle.ts, itself checked against the RFC's
// definitions): the same root at every size, however the leaves are split between restores.
import { describe, expect, it } from 'vitest';
import { toBase64, utf8 } from '@shared/transparency/bytes';
import { CompactRange } from '@shared/transparency/compact-range';
import { leafHash, MerkleTree } from '@shared/transparency/merkle';

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
});
