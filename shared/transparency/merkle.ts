// The Merkle tree of RFC 9162 (Certificate Transparency 2.0), section 2.1: leaf hash
// SHA-256(0x00 ‖ data), node hash SHA-256(0x01 ‖ left ‖ right), a tree of n leaves split at the
// largest power of two below n; inclusion and consistency proofs and their verification as the RFC
// writes them. The tree keeps every complete aligned subtree's hash, level by level in flat byte
// arrays, so a root or a proof costs O(log² n) hashes however large the log grows.
import { sha256 as pureSha256, type Sha256 } from './sha256';
import { concatBytes, equalBytes } from './bytes';

// One buffer each for the prefixed input, reused: a hash function reads its input and keeps nothing,
// and a first sync hashes hundreds of thousands of leaves and nodes.
let leafInput = new Uint8Array(1024);
const nodeInput = Uint8Array.of(0x01, ...new Uint8Array(64));

export function leafHash(data: Uint8Array, hash: Sha256 = pureSha256): Uint8Array {
  if (data.length + 1 > leafInput.length) leafInput = new Uint8Array(Math.max(data.length + 1, leafInput.length * 2));
  leafInput[0] = 0x00;
  leafInput.set(data, 1);
  return hash(leafInput.subarray(0, data.length + 1));
}

export function nodeHash(left: Uint8Array, right: Uint8Array, hash: Sha256 = pureSha256): Uint8Array {
  if (left.length !== 32 || right.length !== 32) return hash(concatBytes(Uint8Array.of(0x01), left, right));
  nodeInput.set(left, 1);
  nodeInput.set(right, 33);
  return hash(nodeInput);
}

/** The largest power of two strictly below n (n > 1). */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

const isPowerOfTwo = (n: number) => n > 0 && (n & (n - 1)) === 0;

class Level {
  bytes = new Uint8Array(32 * 64);
  count = 0;
  push(hash: Uint8Array): void {
    if ((this.count + 1) * 32 > this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2);
      grown.set(this.bytes);
      this.bytes = grown;
    }
    this.bytes.set(hash, this.count * 32);
    this.count++;
  }
  at(i: number): Uint8Array {
    return this.bytes.subarray(i * 32, i * 32 + 32);
  }
}

export class MerkleTree {
  /** levels[k] holds the hashes of the complete subtrees of 2^k leaves, left to right. */
  private readonly levels: Level[] = [new Level()];

  constructor(private readonly hash: Sha256 = pureSha256) {}

  get size(): number {
    return this.levels[0]!.count;
  }

  /** Appends a leaf by its data. */
  append(data: Uint8Array): void {
    this.appendLeafHash(leafHash(data, this.hash));
  }

  /** Appends a leaf whose leaf hash is already known (the registry stores them). */
  appendLeafHash(hash: Uint8Array): void {
    let node = hash;
    for (let k = 0; ; k++) {
      const level = (this.levels[k] ??= new Level());
      level.push(node);
      if (level.count % 2 === 1) return;
      node = nodeHash(level.at(level.count - 2), level.at(level.count - 1), this.hash);
    }
  }

  leafHashAt(index: number): Uint8Array {
    return this.levels[0]!.at(index);
  }

  /** MTH of the leaves [start, end), read from the complete subtrees where aligned. */
  rangeHash(start: number, end: number): Uint8Array {
    const n = end - start;
    if (n === 0) return this.hash(new Uint8Array(0));
    if (isPowerOfTwo(n) && start % n === 0) {
      const k = Math.log2(n);
      return this.levels[k]!.at(start / n);
    }
    const k = splitPoint(n);
    return nodeHash(this.rangeHash(start, start + k), this.rangeHash(start + k, end), this.hash);
  }

  /** The root hash of the tree's first `size` leaves. */
  root(size: number = this.size): Uint8Array {
    this.checkSize(size, 'size');
    return this.rangeHash(0, size);
  }

  /** PATH(m, D[n]) of RFC 9162 2.1.3.1, leaf to root. */
  inclusionProof(index: number, size: number): Uint8Array[] {
    this.checkSize(size, 'size');
    if (!(index >= 0 && index < size)) throw new RangeError('index must be below size');
    const path: Uint8Array[] = [];
    const walk = (m: number, start: number, end: number) => {
      const n = end - start;
      if (n <= 1) return;
      const k = splitPoint(n);
      if (m < k) {
        walk(m, start, start + k);
        path.push(this.rangeHash(start + k, end));
      } else {
        walk(m - k, start + k, end);
        path.push(this.rangeHash(start, start + k));
      }
    };
    walk(index, 0, size);
    return path;
  }

  /** PROOF(m, D[n]) of RFC 9162 2.1.4.1. */
  consistencyProof(from: number, to: number): Uint8Array[] {
    this.checkSize(to, 'to');
    if (!(from >= 0 && from <= to)) throw new RangeError('from must be at most to');
    if (from === 0 || from === to) return [];
    const proof: Uint8Array[] = [];
    const sub = (m: number, start: number, end: number, complete: boolean) => {
      const n = end - start;
      if (m === n) {
        if (!complete) proof.push(this.rangeHash(start, end));
        return;
      }
      const k = splitPoint(n);
      if (m <= k) {
        sub(m, start, start + k, complete);
        proof.push(this.rangeHash(start + k, end));
      } else {
        sub(m - k, start + k, end, false);
        proof.push(this.rangeHash(start, start + k));
      }
    };
    sub(from, 0, to, true);
    return proof;
  }

  private checkSize(size: number, name: string): void {
    if (!(Number.isSafeInteger(size) && size >= 0 && size <= this.size)) throw new RangeError(`${name} must be at most ${this.size}`);
  }
}

/** RFC 9162 2.1.3.2: does `proof` show the leaf with `hash` at `index` in the tree of `size` with `root`? */
export function verifyInclusion(
  index: number,
  size: number,
  hash: Uint8Array,
  proof: readonly Uint8Array[],
  root: Uint8Array,
  sha: Sha256 = pureSha256,
): boolean {
  if (!(Number.isSafeInteger(index) && Number.isSafeInteger(size) && index >= 0 && index < size)) return false;
  let fn = index;
  let sn = size - 1;
  let r = hash;
  for (const p of proof) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r, sha);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      r = nodeHash(r, p, sha);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && equalBytes(r, root);
}

/** RFC 9162 2.1.4.2: does `proof` show the tree of `from` leaves with `fromRoot` is a prefix of the one of `to`? */
export function verifyConsistency(
  from: number,
  to: number,
  fromRoot: Uint8Array,
  toRoot: Uint8Array,
  proof: readonly Uint8Array[],
  sha: Sha256 = pureSha256,
): boolean {
  if (!(Number.isSafeInteger(from) && Number.isSafeInteger(to) && from >= 0 && from <= to)) return false;
  if (from === to) return proof.length === 0 && equalBytes(fromRoot, toRoot);
  if (from === 0) return proof.length === 0;
  if (proof.length === 0) return false;
  const path = isPowerOfTwo(from) ? [fromRoot, ...proof] : [...proof];
  let fn = from - 1;
  let sn = to - 1;
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  let fr = path[0]!;
  let sr = path[0]!;
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHash(c, fr, sha);
      sr = nodeHash(c, sr, sha);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      sr = nodeHash(sr, c, sha);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && equalBytes(fr, fromRoot) && equalBytes(sr, toRoot);
}
