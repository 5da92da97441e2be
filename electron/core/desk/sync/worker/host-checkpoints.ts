// The workers that checkpoint a first sync's load for the sync worker's host (host.ts).
import type { Worker } from 'node:worker_threads';
import { send, type HostCheckpoints } from './host-state';

/**
 * Checkpoints started once no run is left, when the sync worker's heap is no longer at its peak
 * (the checkpoint's worker is a V8 of its own and the bundle). Each is a worker of its own.
 */
export function hostCheckpoints(startCheckpointer: () => Worker, runsPending: () => boolean): HostCheckpoints {
  // Those under way, each until it ends, and those asked for during a run.
  const checkpointing = new Set<Promise<void>>();
  const checkpointsAfterRuns: (() => void)[] = [];
  /** Checkpoints the cache's WAL in a worker of its own and tells the sync worker when it has ended. */
  function checkpointFor(from: Worker, id: number) {
    let ended: Promise<void>;
    try {
      const checkpointer = startCheckpointer();
      // Ended either way (an error ends a worker too): the sync worker's automatic checkpoints come back.
      checkpointer.on('error', () => {});
      ended = new Promise((resolve) => checkpointer.once('exit', () => resolve()));
    } catch {
      ended = Promise.resolve();
    }
    checkpointing.add(ended);
    void ended.then(() => {
      checkpointing.delete(ended);
      send(from, { type: 'checkpoint-done', id });
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
    ended: async () => void (await Promise.all(checkpointing)),
  };
}
