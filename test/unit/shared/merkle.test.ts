// The transparency log's Merkle code against RFC 9162 section 2.1. The reference below is the RFC's
// recursive definitions written out literally (MTH, PATH, PROOF over arrays, hashed with Node's
// SHA-256); the fixed vectors were computed with it and agree with the eight-leaf example tree the
// Certificate Transparency implementations test with (leaves "", 00, 10, 2021, 3031, 40414243,
// 5051…57, 6061…6f). Then properties: for every tree size up to 300, every proof the tree hands
// out verifies, and any tampered proof, hash, index or size fails.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromBase64, toBase64, toHex, utf8 } from '@shared/transparency/bytes';
import { MerkleTree, leafHash, verifyConsistency, verifyInclusion } from '@shared/transparency/merkle';
import { sha256 } from '@shared/transparency/sha256';

const nodeSha = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());
const H = (...parts: number[][]) => nodeSha(Uint8Array.from(parts.flat()));
const k = (n: number) => {
  let p = 1;
  while (p * 2 < n) p *= 2;
  return p;
};
// RFC 9162 2.1.1, 2.1.3.1, 2.1.4.1, literally
const MTH = (d: Uint8Array[]): Uint8Array =>
  d.length === 0 ? H([]) : d.length === 1 ? H([0], [...d[0]!]) : H([1], [...MTH(d.slice(0, k(d.length)))], [...MTH(d.slice(k(d.length)))]);
const PATH = (m: number, d: Uint8Array[]): Uint8Array[] => {
  if (d.length <= 1) return [];
  const s = k(d.length);
  return m < s ? [...PATH(m, d.slice(0, s)), MTH(d.slice(s))] : [...PATH(m - s, d.slice(s)), MTH(d.slice(0, s))];
};
const SUBPROOF = (m: number, d: Uint8Array[], b: boolean): Uint8Array[] => {
  if (m === d.length) return b ? [] : [MTH(d)];
  const s = k(d.length);
  return m <= s ? [...SUBPROOF(m, d.slice(0, s), b), MTH(d.slice(s))] : [...SUBPROOF(m - s, d.slice(s), false), MTH(d.slice(0, s))];
};
const PROOF = (m: number, d: Uint8Array[]) => (m === 0 || m === d.length ? [] : SUBPROOF(m, d, true));

const EXAMPLE = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'].map((h) =>
  Uint8Array.from(Buffer.from(h, 'hex')),
);
const EXAMPLE_ROOTS = [
  'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
];

const treeOf = (leaves: Uint8Array[]) => {
  const tree = new MerkleTree();
  leaves.forEach((l) => tree.append(l));
  return tree;
};
const leavesOf = (n: number) => Array.from({ length: n }, (_, i) => utf8(`leaf ${i}`));

describe('SHA-256 and bytes', () => {
  it('hashes as Node does, at every length around the block boundaries', () => {
    for (let n = 0; n < 200; n++) {
      const data = Uint8Array.from({ length: n }, (_, i) => (i * 7 + n) & 255);
      expect(toHex(sha256(data))).toBe(toHex(nodeSha(data)));
    }
    fc.assert(fc.property(fc.uint8Array({ maxLength: 1000 }), (d) => toHex(sha256(d)) === toHex(nodeSha(d))));
  });
  it('writes base64 and UTF-8 as Node does', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (d) => {
        const b64 = toBase64(d);
        return b64 === Buffer.from(d).toString('base64') && toHex(fromBase64(b64)!) === toHex(d);
      }),
    );
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => toHex(utf8(s)) === Buffer.from(s, 'utf8').toString('hex')));
    expect(fromBase64('not base64!')).toBeUndefined();
  });
  it('reads only padded standard base64', () => {
    // what Node's lenient decoder would take and the log's format does not
    for (const text of ['QQ', 'QQ=', 'Q===', 'QQ==QQ==', '=QQQ', 'QQ-_', 'QQ\u00e9=', 'QUJD\n'])
      expect(fromBase64(text), text).toBeUndefined();
    expect(fromBase64('')).toEqual(new Uint8Array(0));
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), fc.nat(), fc.constantFrom('*', '=', ' ', '\u00ff'), (d, at, bad) => {
        const b64 = Buffer.from(d).toString('base64');
        if (b64.length === 0) return true;
        const i = at % b64.length;
        if (bad === '=' && i >= b64.length - 2) return true; // padding in its place: another valid string
        return fromBase64(b64.slice(0, i) + bad + b64.slice(i + 1)) === undefined;
      }),
    );
  });
});

describe('RFC 9162 Merkle tree', () => {
  it('gives the example roots at sizes 0 to 8, as the definitions do', () => {
    const tree = new MerkleTree();
    EXAMPLE_ROOTS.forEach((root, size) => {
      if (size > 0) tree.append(EXAMPLE[size - 1]!);
      expect(toHex(tree.root())).toBe(root);
      expect(toHex(MTH(EXAMPLE.slice(0, size)))).toBe(root);
    });
    expect(toHex(leafHash(new Uint8Array(0)))).toBe(EXAMPLE_ROOTS[1]);
  });

  it('hands out the proofs of the definitions, which verify, for every size up to 24', () => {
    const leaves = leavesOf(24);
    const tree = new MerkleTree(nodeSha);
    for (let size = 1; size <= leaves.length; size++) {
      tree.append(leaves[size - 1]!);
      const d = leaves.slice(0, size);
      const root = MTH(d);
      expect(toHex(tree.root())).toBe(toHex(root));
      for (let m = 0; m < size; m++) {
        const path = tree.inclusionProof(m, size);
        expect(path.map(toHex)).toEqual(PATH(m, d).map(toHex));
        expect(verifyInclusion(m, size, leafHash(d[m]!), path, root)).toBe(true);
      }
      for (let m = 0; m <= size; m++) {
        const proof = tree.consistencyProof(m, size);
        expect(proof.map(toHex)).toEqual(PROOF(m, d).map(toHex));
        expect(verifyConsistency(m, size, MTH(leaves.slice(0, m)), root, proof)).toBe(true);
      }
    }
  });

  const big = treeOf(leavesOf(300));
  const sizes = fc.integer({ min: 1, max: 300 }).chain((size) => fc.tuple(fc.constant(size), fc.nat({ max: size - 1 })));
  const flip = (hashes: Uint8Array[], i: number, bit: number) =>
    hashes.map((h, j) => (j === i ? h.map((b, x) => (x === bit >> 3 ? b ^ (1 << (bit & 7)) : b)) : h));

  it('verifies every inclusion proof up to 300 leaves; a tampered one fails', () => {
    fc.assert(
      fc.property(sizes, fc.nat(), fc.nat({ max: 255 }), ([size, index], pick, bit) => {
        const root = big.root(size);
        const proof = big.inclusionProof(index, size);
        const leaf = big.leafHashAt(index);
        expect(verifyInclusion(index, size, leaf, proof, root)).toBe(true);
        expect(verifyInclusion(index, size, leaf, proof, big.root(size === 300 ? 299 : size + 1))).toBe(false);
        if (proof.length > 0) {
          expect(verifyInclusion(index, size, leaf, flip(proof, pick % proof.length, bit), root)).toBe(false);
          expect(verifyInclusion(index, size, leaf, proof.slice(0, -1), root)).toBe(false);
          expect(verifyInclusion(index, size, leaf, [...proof, leaf], root)).toBe(false);
          if (index + 1 < size) expect(verifyInclusion(index + 1, size, leaf, proof, root)).toBe(false);
        }
        expect(verifyInclusion(index, size, flip([leaf], 0, bit)[0]!, proof, root)).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('verifies every consistency proof up to 300 leaves; a tampered one or a forked root fails', () => {
    fc.assert(
      fc.property(sizes, fc.nat(), fc.nat({ max: 255 }), ([to, from], pick, bit) => {
        const proof = big.consistencyProof(from + 1, to);
        const [a, b] = [big.root(from + 1), big.root(to)];
        expect(verifyConsistency(from + 1, to, a, b, proof)).toBe(true);
        if (from + 1 < to) {
          expect(verifyConsistency(from + 1, to, a, b, flip(proof, pick % proof.length, bit))).toBe(false);
          expect(verifyConsistency(from + 1, to, flip([a], 0, bit)[0]!, b, proof)).toBe(false);
          expect(verifyConsistency(from + 1, to, a, flip([b], 0, bit)[0]!, proof)).toBe(false);
          expect(verifyConsistency(from + 1, to, a, b, proof.slice(1))).toBe(false);
        } else {
          expect(verifyConsistency(to, to, a, flip([b], 0, bit)[0]!, [])).toBe(false);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('refuses proofs outside the tree', () => {
    expect(() => big.inclusionProof(5, 301)).toThrow(RangeError);
    expect(() => big.inclusionProof(5, 5)).toThrow(RangeError);
    expect(() => big.consistencyProof(6, 5)).toThrow(RangeError);
    expect(verifyInclusion(5, 5, big.leafHashAt(0), [], big.root(5))).toBe(false);
  });
});
