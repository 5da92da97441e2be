// The right frontier ("compact range" of transparency-dev, RFC 9162's tree seen from its end): the
// hashes of the complete subtrees a tree of n leaves is made of, one per set bit of n, largest first.
// log2(n) hashes are enough to append leaves and compute the root of every larger tree, so a client
// that kept them for the tree it verified checks a new checkpoint by hashing only the new leaves:
// the root it computes equals the signed one exactly when the new tree extends the old one (the
// consistency) and holds these leaves (their inclusion), with no proof asked for either.
import { fromBase64, toBase64 } from './bytes';
import { nodeHash } from './merkle';
import { sha256 as pureSha256, type Sha256 } from './sha256';

export class CompactRange {
  private constructor(
    private leaves: number,
    private readonly hashes: Uint8Array[],
    private readonly hash: Sha256,
  ) {}

  static empty(hash: Sha256 = pureSha256): CompactRange {
    return new CompactRange(0, [], hash);
  }

  /** A frontier kept as base64 hashes; undefined when they cannot be the frontier of `size` leaves. */
  static restore(size: number, hashes: readonly string[], hash: Sha256 = pureSha256): CompactRange | undefined {
    if (!Number.isSafeInteger(size) || size < 0) return undefined;
    const bytes = hashes.map((h) => fromBase64(h));
    if (bytes.length !== popCount(size) || bytes.some((b) => b?.length !== 32)) return undefined;
    return new CompactRange(size, bytes as Uint8Array[], hash);
  }

  get size(): number {
    return this.leaves;
  }

  /** The frontier's hashes, base64, largest subtree first (what `restore` takes back). */
  frontier(): string[] {
    return this.hashes.map(toBase64);
  }

  /** Appends a leaf by its leaf hash: the new leaf merges with each complete subtree of its size. */
  appendLeafHash(leaf: Uint8Array): void {
    let node = leaf;
    for (let size = this.leaves; size % 2 === 1; size = Math.floor(size / 2)) node = nodeHash(this.hashes.pop()!, node, this.hash);
    this.hashes.push(node);
    this.leaves++;
  }

  /** MTH of the leaves so far: the subtrees folded from the right (RFC 9162 splits at the largest power of two). */
  root(): Uint8Array {
    if (this.hashes.length === 0) return this.hash(new Uint8Array(0));
    let root = this.hashes[this.hashes.length - 1]!;
    for (let i = this.hashes.length - 2; i >= 0; i--) root = nodeHash(this.hashes[i]!, root, this.hash);
    return root;
  }
}

function popCount(n: number): number {
  let count = 0;
  for (let rest = n; rest > 0; rest = Math.floor(rest / 2)) count += rest % 2;
  return count;
}
