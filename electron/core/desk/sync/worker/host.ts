// The sync engine as the desk uses it: the same SyncEngine interface as createSyncEngine, but the
// engine runs in a worker thread (entry.ts) with its own cache connection. Why:
// - the end-of-run swap-in of a large registry is seconds of synchronous SQL; on the main thread it
//   would stall every IPC call, menu and web-host request meanwhile;
// - the worker's heap has its own limit, so V8 collects the sync's garbage early instead of letting
//   the whole process grow (a first sync at --scale 100 otherwise peaks far above its live data);
// - a sync that runs out of memory ends the worker, not the app: the run is retried once in a new
//   worker with twice the heap (up to maxHeapLimitMb), and otherwise reported as failed with the
//   cache intact (every resource is swapped in by one transaction; staged rows wait for the next run).
// The app's key stays here: the worker asks this side for access tokens over the message port.
// This file is the engine's face; the worker's thread is host-thread.ts, its messages host-messages.ts.
import { SYNC_RESOURCES, type SyncResource } from '@shared/desk/api';
import type { InstallationRef } from '../context';
import { syncStatusOf } from '../engine';
import type { SyncEngine, SyncRunResult } from '../types';
import { syncInterval } from '../interval';
import { syncListeners } from '../listeners';
import { hostCheckpoints } from './host-checkpoints';
import { DEFAULT_SYNC_HEAP_MB, MAX_SYNC_HEAP_MB, type WorkerSyncEngineOptions } from './host-options';
import { clockOffsetMs, send, type Host } from './host-state';
import { ensureWorker, startCheckpointer } from './host-thread';

export {
  DEFAULT_SYNC_HEAP_MB,
  MAX_SYNC_HEAP_MB,
  SYNC_YOUNG_GENERATION_MB,
  type SyncWorkerSettings,
  type WorkerSyncEngineOptions,
} from './host-options';

/** The engine in its worker, and what it leaves running in the background after a run. */
export interface WorkerSyncEngine extends SyncEngine {
  /** Settles once what runs have left running has ended: a first sync's deferred indexes and checkpoint. */
  background(): Promise<void>;
}

export function createWorkerSyncEngine(options: WorkerSyncEngineOptions): WorkerSyncEngine {
  const { emit, subscribe } = syncListeners();
  const heapLimitMb = options.heapLimitMb ?? DEFAULT_SYNC_HEAP_MB;
  const host: Host = {
    options,
    pending: new Map(),
    heapLimitMb,
    maxHeapLimitMb: Math.max(heapLimitMb, options.maxHeapLimitMb ?? MAX_SYNC_HEAP_MB),
    worker: null,
    state: { running: false, progress: null, lastError: null, online: true },
    closed: false,
    checkpoints: hostCheckpoints(
      () => startCheckpointer(host),
      () => host.pending.size > 0,
      () => host.worker,
    ),
    emit,
    status: () => syncStatusOf(host.state, options.cache.lastSuccess()),
  };
  let nextRunId = 0;

  async function run(requested: readonly SyncResource[] = SYNC_RESOURCES): Promise<SyncRunResult> {
    const resources = [...new Set(requested.filter((r) => (SYNC_RESOURCES as readonly string[]).includes(r)))];
    if (resources.length === 0) throw new Error(`nothing to sync: known resources are ${SYNC_RESOURCES.join(', ')}`);
    if (host.closed) throw new Error('the sync engine is closed');
    // Running from now on, as the in-process engine would say; the worker's own state follows.
    host.state = { ...host.state, running: true };
    let installations: InstallationRef[];
    try {
      installations = await options.installations();
    } catch (error) {
      if (host.pending.size === 0) host.state = { ...host.state, running: false };
      throw error;
    }
    if (host.closed) throw new Error('the sync engine is closed');
    const target = ensureWorker(host);
    const id = ++nextRunId;
    return new Promise<SyncRunResult>((resolve, reject) => {
      host.pending.set(id, { resources, installations, resolve, reject });
      send(target, { type: 'run', id, resources, installations, clockOffsetMs: clockOffsetMs(host) });
    });
  }

  // The worker keeps the grants it was given until they near expiry: a clear (the key re-imported)
  // must reach it, or it would go on with a token of the old key until the registry refused it.
  const stopHearingClears = options.tokens.onClear(() => {
    if (host.worker) send(host.worker, { type: 'tokens-cleared' });
  });

  const interval = syncInterval(() => run());
  return {
    run,
    background: () => host.checkpoints.ended(),
    status: host.status,
    subscribe,
    start: interval.start,
    stop: interval.stop,
    /** Stops the interval and the worker. A run in progress is abandoned (and reported failed): the cache keeps its previous data. */
    async close() {
      interval.stop();
      stopHearingClears();
      host.closed = true;
      // A checkpoint under way is let finish (it takes seconds at most): it is SQLite's own, on its own
      // connection. One the sync worker makes itself ends before the worker is asked to close.
      host.checkpoints.startAfterRuns();
      const checkpoints = host.checkpoints.ended();
      const current = host.worker;
      if (!current) return void (await checkpoints);
      if (host.pending.size === 0) await checkpoints;
      const gone = new Promise<void>((resolve) => current.once('exit', () => resolve()));
      send(current, { type: 'close' });
      // The worker answers 'closed' at once (then is terminated); one that does not is ended anyway.
      const deadline = setTimeout(() => void current.terminate(), 2000);
      await gone;
      clearTimeout(deadline);
      await checkpoints;
    },
  };
}
