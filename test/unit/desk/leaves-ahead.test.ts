// The history replay's leaves fetched a few pages ahead (verification/transport.ts) over a synthetic
// log: every leaf once and in order, and only the pages ahead held, so the replay's memory does not
// grow with the log (holding every parsed page ran a first sync at scale 100 out of its thread's heap);
// and the replay thread's side (sync/worker/replay-thread.ts) over a message channel, its 'kept's
// coming in bursts as from a busy sync thread, finishing rather than waiting for a page never asked.
import { afterAll, describe, expect, it } from 'vitest';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { MessageChannel } from 'node:worker_threads';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import type { Get, ServedLeaf } from '@shared/transparency/verifier';
import { fetchLeavesAhead } from '@desk/verification/transport';
import { leavesOnItsOwnThread, serveLeafReplay } from '@desk/sync/worker/replay-thread';
import type { LeavesReplayed } from '@desk/verification/leaf-replay';
import { CompactRange } from '@shared/transparency/compact-range';
import { leafHash } from '@shared/transparency/merkle';
import { toBase64 } from '@shared/transparency/bytes';
import { sha256 } from '@platform/log-crypto';

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
  it('hands every leaf once and in order, from where the verified tree ends', async () => {
    let next = 345;
    await fetchLeavesAhead(syntheticLog(12_345), 345, 12_345, (leaves, from) => {
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
    // the pages ahead (16) are not handed on yet; of those handed on, at most the one being handed
    expect(alive).toBeGreaterThanOrEqual(0);
    expect(alive).toBeLessThanOrEqual(1);
  });
});

/**
 * Plays the sync's thread for a replay thread served over a message channel: its movements are
 * acknowledged ('kept'), `perBurst` at a time, only once the replay has gone quiet (as when the
 * sync's thread was busy writing). Rejects when the replay is quiet with nothing left to acknowledge.
 */
async function replayWithBurstyKeeps(size: number, perBurst: number): Promise<{ replayed: LeavesReplayed; bursts: number }> {
  let activity = 0;
  const get = syntheticLog(size, async () => {
    activity++;
  });
  const { port1: sync, port2: thread } = new MessageChannel();
  serveLeafReplay(thread, async (path) => {
    activity++;
    return get(path);
  });
  let unkept = 0;
  let bursts = 0;
  const end: { replayed?: LeavesReplayed; failed?: string } = {};
  sync.on('message', (message: { type: string; replayed?: LeavesReplayed; error?: { message: string } }) => {
    activity++;
    if (message.type === 'movements') unkept++;
    else if (message.type === 'done') end.replayed = message.replayed!;
    else end.failed = message.error?.message ?? message.type;
  });
  sync.postMessage({ type: 'replay', job: { from: 0, to: size, frontier: [] } });
  try {
    for (let quiet = 0, seen = -1; !end.replayed;) {
      await nextTurn();
      quiet = activity === seen ? quiet + 1 : 0;
      seen = activity;
      if (quiet < 20) continue;
      if (end.failed !== undefined) throw new Error(`the replay failed: ${end.failed}`);
      if (unkept === 0) throw new Error(`the replay stopped asking for pages (${bursts} bursts of 'kept')`);
      for (let n = 0; unkept > 0 && n < perBurst; n++, unkept--) sync.postMessage({ type: 'kept' });
      bursts++;
      quiet = 0;
    }
    return { replayed: end.replayed, bursts };
  } finally {
    sync.close();
  }
}

describe("the history replay's thread", () => {
  it("finishes however the sync's thread spreads its 'kept's", async () => {
    // 26 and 27 pages (10 and 11 past the 16 asked at first), one or a few 'kept's at a time: the
    // asks woken one per 'kept' left the next page unasked with nothing left to keep (a first sync
    // hung); every ask now looks again.
    for (const [pages, perBurst] of [
      [26, 1],
      [26, 4],
      [27, 2],
    ] as const) {
      const { bursts } = await replayWithBurstyKeeps(pages * PAGE, perBurst);
      expect(bursts).toBeGreaterThan(1);
    }
  });

  it('computes the root and frontier of the whole log', async () => {
    const size = 10 * PAGE + 7;
    const { replayed } = await replayWithBurstyKeeps(size, 100);
    const range = CompactRange.empty(sha256);
    for (let i = 0; i < size; i++) range.appendLeafHash(leafHash(new Uint8Array([0]), sha256));
    expect(replayed).toMatchObject({ ok: true, root: toBase64(range.root()), frontier: range.frontier() });
  });
});

describe('a replay thread that dies', () => {
  const dir = mkdtempSync(join(tmpdir(), 'replay-thread-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  /** The replay's job on a thread started from `source`, as the sync's thread starts it (built script, the app's heap limit). */
  const replayOn = (name: string, source: string) => {
    const file = join(dir, name);
    writeFileSync(file, source);
    const replay = leavesOnItsOwnThread({ script: { file }, workerData: {} }, 'http://log.invalid', 1)(syntheticLog(10));
    return replay({ from: 0, to: 10, frontier: [] }, () => {});
  };

  it('fails the replay at once, saying so, when the thread runs out of heap', async () => {
    const source = 'const kept = []; for (;;) kept.push(new Array(100_000).fill(kept.length));';
    await expect(replayOn('heap.mjs', source)).rejects.toThrow(/^the history replay's thread stopped: .*heap out of memory/);
  });

  it('fails the replay at once when the thread ends without an answer', async () => {
    await expect(replayOn('exit.mjs', 'process.exit(3);')).rejects.toThrow("the history replay's thread stopped");
  });
});
