// The least a desk that verifies its registry's history must add to a first sync: download every
// leaf of the transparency log and hash it onto the tree's frontier (docs/transparency.md). The
// feed's floor in sync.bench.ts adds this when asked, so that a first sync with its history check
// is set beside a floor that does the same network and hashing work and nothing else: no parsing
// of the leaves' rows, no matching, no writes.
import { CompactRange } from '@shared/transparency/compact-range';
import { leafHash } from '@shared/transparency/merkle';
import { base64Bytes, sha256 } from '@platform/log-crypto';
import { transparencyGet } from '@desk/verification/transport';

/** Pages of 1,000 leaves (the registry's largest), sixteen asked ahead, as the desk asks them (desk/verification/transport.ts). */
const PAGE = 1000;
const AHEAD = 16;

/** Replays the whole log at `baseUrl`; the requests it made. */
export async function replayLogFloor(baseUrl: string): Promise<{ requests: number; leaves: number }> {
  // The desk's own GET: asked once more after a network failure, as the desk does (a kept-alive
  // connection the registry closed while this floor hashed fails its next request).
  const get = transparencyGet(baseUrl);
  const checkpoint = await get('/transparency/v1/checkpoint');
  if (checkpoint.status !== 200) throw new Error(`checkpoint: ${checkpoint.status}`);
  const size = Number(checkpoint.text.split('\n')[1]);
  const range = CompactRange.empty(sha256);
  const page = async (start: number) => {
    const res = await get(`/transparency/v1/leaves?start=${start}&end=${Math.min(size, start + PAGE)}`);
    if (res.status !== 200) throw new Error(`leaves: ${res.status}`);
    return (JSON.parse(res.text) as { leaves: { data: string }[] }).leaves;
  };
  const starts: number[] = [];
  for (let s = 0; s < size; s += PAGE) starts.push(s);
  const ask = (start: number) => {
    const answer = page(start);
    answer.catch(() => {}); // awaited in its turn; failing earlier must not count as unhandled
    return answer;
  };
  const pending = starts.slice(0, AHEAD).map(ask);
  for (let i = 0; i < starts.length; i++) {
    const leaves = await pending[i]!;
    if (i + AHEAD < starts.length) pending.push(ask(starts[i + AHEAD]!));
    // a short page would need asking again; the registry's pages of 1,000 are never short
    if (leaves.length !== Math.min(PAGE, size - starts[i]!)) throw new Error(`leaves from ${starts[i]}: a short page`);
    for (const leaf of leaves) range.appendLeafHash(leafHash(base64Bytes(leaf.data) ?? new Uint8Array(0), sha256));
  }
  return { requests: starts.length + 1, leaves: range.size };
}
