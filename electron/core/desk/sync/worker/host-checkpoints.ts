// The checkpoints of a first sync's load, for the sync worker's host (host.ts).
import type { Worker } from 'node:worker_threads';
import { send, type HostCheckpoints } from './host-state';

/**
 * Checkpoints started once no run is left, when the sync worker's heap is no longer at its peak.
 * The sync worker, idle then, makes each itself: a worker started for it was a V8 of its own and
 * the bundle, 10-40 MB of RSS on top of the sync's (the process's peak at --scale 100,
 * bench/README.md). A worker of its own still makes one the sync worker cannot: it ended (out of
 * memory, closed in the middle of a run) or is running again.
 */
export function hostCheckpoints(
  startCheckpointer: () => Worker,
  runsPending: () => boolean,
  syncWorker: () => Worker | null,
): HostCheckpoints {
  // Those under way, each until it ends, and those asked for during a run.
  const checkpointing = new Set<Promise<void>>();
  const checkpointsAfterRuns: (() => void)[] = [];
  // Those the sync worker makes itself, by id: settled when it says so or ends.
  const madeHere = new Map<number, () => void>();

  /** Asks the idle sync worker to checkpoint its own load. */
  function checkpointHere(from: Worker, id: number): Promise<void> {
    return new Promise<void>((resolve) => {
      madeHere.set(id, resolve);
      from.once('exit', () => resolve());
      send(from, { type: 'checkpoint-here', id });
    });
  }

  /** Checkpoints the cache's WAL in a worker of its own and tells the sync worker when it has ended. */
  function checkpointElsewhere(from: Worker, id: number): Promise<void> {
    let ended: Promise<void>;
    try {
      const checkpointer = startCheckpointer();
      // Ended either way (an error ends a worker too): the sync worker's automatic checkpoints come back.
      checkpointer.on('error', () => {});
      ended = new Promise((resolve) => checkpointer.once('exit', () => resolve()));
    } catch {
      ended = Promise.resolve();
    }
    return ended.then(() => send(from, { type: 'checkpoint-done', id }));
  }

  function checkpointFor(from: Worker, id: number) {
    const ended = from === syncWorker() && !runsPending() ? checkpointHere(from, id) : checkpointElsewhere(from, id);
    checkpointing.add(ended);
    void ended.then(() => {
      checkpointing.delete(ended);
      madeHere.delete(id);
    });
  }
  return {
    request(from, id) {
      if (runsPending()) checkpointsAfterRuns.push(() => checkpointFor(from, id));
      else checkpointFor(from, id);
    },
    startAfterRuns() {
      for (const start of checkpointsAfterRuns.splice(0)) start();
    },
    madeHere(id) {
      madeHere.get(id)?.();
    },
    ended: async () => void (await Promise.all(checkpointing)),
  };
}
