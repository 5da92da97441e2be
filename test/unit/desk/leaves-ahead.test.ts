// The history replay's leaves fetched a few pages ahead (verification/transport.ts) over a synthetic
// log: every leaf once and in order, and only the pages ahead held, so the replay's memory does not
// grow with the log (holding every parsed page ran a first sync at scale 100 out of its thread's heap).
import { describe, expect, it } from 'vitest';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Get, ServedLeaf } from '@shared/transparency/verifier';
import { fetchLeavesAhead } from '@desk/verification/transport';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const PAGE = 1000;
const leavesJson = (start: number, end: number) =>
  JSON.stringify({
    leaves: Array.from({ length: end - start }, (_, i) => ({ index: start + i, data: 'AA==', kind: 'project', id: `p${start + i}` })),
  });

/** A log of `size` leaves answered a macrotask later (as a socket would), calling `asking` before each answer. */
function syntheticLog(size: number, asking: (start: number) => Promise<void> = async () => {}): Get {
  return async (path) => {
    const url = new URL(path, 'http://log.invalid');
    const start = Number(url.searchParams.get('start'));
    const end = Math.min(size, Number(url.searchParams.get('end')), start + PAGE);
    await new Promise((resolve) => setImmediate(resolve));
    await asking(start);
    return { status: 200, text: leavesJson(start, end) };
  };
}

describe('the leaves of a long log fetched ahead', () => {
  it('hands every leaf once and in order', async () => {
    let next = 0;
    await fetchLeavesAhead(syntheticLog(12_345), 0, 12_345, (leaves, from) => {
      expect(from).toBe(next);
      for (const leaf of leaves) expect(leaf.index).toBe(next++);
    });
    expect(next).toBe(12_345);
  });

  it('holds only the pages ahead, not every page handed on', async () => {
    const pages = 40;
    const handed: WeakRef<ServedLeaf[]>[] = [];
    let alive = -1;
    const get = syntheticLog(pages * PAGE, async (start) => {
      if (start !== (pages - 1) * PAGE) return;
      // the last page asked: every page handed on so far is garbage unless the fetch still holds it
      await new Promise((resolve) => setImmediate(resolve));
      gc();
      alive = handed.filter((ref) => ref.deref() !== undefined).length;
    });
    await fetchLeavesAhead(get, 0, pages * PAGE, (leaves) => {
      handed.push(new WeakRef(leaves));
    });
    expect(handed).toHaveLength(pages);
    // the pages ahead (8) are not handed on yet; of those handed on, at most the one being handed
    expect(alive).toBeGreaterThanOrEqual(0);
    expect(alive).toBeLessThanOrEqual(1);
  });
});
