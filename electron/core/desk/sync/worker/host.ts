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
import { Worker } from 'node:worker_threads';
import { SYNC_RESOURCES, type SyncResource, type EngineSyncStatus } from '@shared/desk/api';
import type { Clock } from '@platform/clock';
import type { TokenManager } from '@desk/client/tokens';
import type { DeskCache } from '@desk/cache';
import type { InstallationRef, SyncTuning, ThreadScript } from '../context';
import { syncStatusOf } from '../engine';
import type { SyncEngine, SyncRunResult } from '../types';
import type { EngineState, HostToWorker, SyncWorkerData, WorkerToHost } from './protocol';
import { sourceScript } from './page-reader';
import { fromWireError, toWireError } from './wire-error';
import { syncInterval } from '../interval';
import { syncListeners } from '../listeners';

/** The worker's V8 old-generation limit: several times a --scale 100 sync's live data. */
export const DEFAULT_SYNC_HEAP_MB = 192;
/**
 * The worker's young generation (V8's nursery, where every parsed item and row string starts). V8
 * sizes it from the old generation's limit otherwise, larger; the sync's garbage is short-lived either
 * way, so a smaller nursery is collected more often at no measurable cost in time, and the peak RSS
 * of a --scale 30 first sync fell with it (bench/README.md).
 */
export const SYNC_YOUNG_GENERATION_MB = 16;
/** The heap of the worker that checkpoints a first sync's load (built: one statement to run). */
const CHECKPOINT_WORKER_LIMITS = { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 2 };
/** After an out-of-memory the limit doubles for the retry, up to this. */
export const MAX_SYNC_HEAP_MB = 1024;

export interface SyncWorkerSettings {
  /** The worker's V8 old-generation limit to start with (default DEFAULT_SYNC_HEAP_MB). */
  heapLimitMb?: number;
  /** The most it may grow to after running out of memory (default MAX_SYNC_HEAP_MB). */
  maxHeapLimitMb?: number;
  /**
   * The built worker script (electron-vite writes out/main/sync-worker.js). Without it the worker
   * starts from this folder's TypeScript source through tsx (the web desk and the tests).
   */
  workerFile?: string;
  /** Replays of at least this many leaves run on a thread of their own (replay-thread.ts; tests set 1). */
  replayThreadLeaves?: number;
  /** False: a first sync's feed pages are read on the sync's thread (the bench measures what the reader saves). */
  pageReaderThread?: boolean;
}

export interface WorkerSyncEngineOptions extends SyncWorkerSettings {
  cacheFile: string;
  baseUrl: string;
  /** The main thread's token manager: it alone reads the app's key. */
  tokens: TokenManager;
  /** The main thread's connection to the same cache, for the status's last-success times. */
  cache: DeskCache;
  clock: Clock;
  installations: () => InstallationRef[] | Promise<InstallationRef[]>;
  tuning?: Partial<SyncTuning>;
  log?: (line: string) => void;
  /** False: runs skip the registry's history check (only a bench measuring the sync apart from it). */
  verifyHistory?: boolean;
}

interface PendingRun {
  resources: SyncResource[];
  installations: InstallationRef[];
  resolve: (result: SyncRunResult) => void;
  reject: (error: Error) => void;
}

/** The engine in its worker, and what it leaves running in the background after a run. */
export interface WorkerSyncEngine extends SyncEngine {
  /** Settles once what runs have left running has ended: a first sync's checkpoint, in a worker of its own. */
  background(): Promise<void>;
}

export function createWorkerSyncEngine(options: WorkerSyncEngineOptions): WorkerSyncEngine {
  const { clock, cache } = options;
  const { emit, subscribe } = syncListeners();
  const pending = new Map<number, PendingRun>();
  let heapLimitMb = options.heapLimitMb ?? DEFAULT_SYNC_HEAP_MB;
  const maxHeapLimitMb = Math.max(heapLimitMb, options.maxHeapLimitMb ?? MAX_SYNC_HEAP_MB);
  let worker: Worker | null = null;
  let state: EngineState = { running: false, progress: null, lastError: null, online: true };
  let nextRunId = 0;
  let closed = false;

  const status = (): EngineSyncStatus => syncStatusOf(state, cache.lastSuccess());
  const clockOffsetMs = () => clock.now() - Date.now();

  function startWorker(
    extra: Partial<SyncWorkerData> = {},
    limits?: { maxOldGenerationSizeMb: number; maxYoungGenerationSizeMb: number },
  ): Worker {
    const data: SyncWorkerData = {
      cacheFile: options.cacheFile,
      baseUrl: options.baseUrl,
      clockOffsetMs: clockOffsetMs(),
      ...(options.tuning ? { tuning: options.tuning } : {}),
      ...(options.verifyHistory === false ? { verifyHistory: false } : {}),
      ...(options.replayThreadLeaves !== undefined ? { replayThreadLeaves: options.replayThreadLeaves } : {}),
      ...(options.pageReaderThread === false ? { noPageReader: true } : {}),
      ...extra,
    };
    const resourceLimits = limits ?? { maxOldGenerationSizeMb: heapLimitMb, maxYoungGenerationSizeMb: SYNC_YOUNG_GENERATION_MB };
    const script: ThreadScript = options.workerFile ? { file: options.workerFile } : sourceScript();
    // The worker starts its first sync's page reader from the same script (page-reader.ts).
    data.script = script;
    return 'file' in script
      ? new Worker(script.file, { workerData: data, resourceLimits })
      : new Worker(new URL(script.bootstrapUrl), { workerData: { ...data, entryUrl: script.entryUrl }, resourceLimits });
  }

  // Workers checkpointing a first sync's load (cache/deferred-checkpoint.ts), each until it ends,
  // and those asked for during a run: started once no run is left, when the sync worker's heap is
  // no longer at its peak (the checkpoint's worker is a V8 of its own and the bundle).
  const checkpointing = new Set<Promise<void>>();
  const checkpointsAfterRuns: (() => void)[] = [];
  const startCheckpointsAfterRuns = () => {
    for (const start of checkpointsAfterRuns.splice(0)) start();
  };
  /** Checkpoints the cache's WAL in a worker of its own and tells the sync worker when it has ended. */
  function checkpointFor(from: Worker, id: number) {
    let ended: Promise<void>;
    try {
      // Built, it needs little heap (it runs one statement); under tsx, compiling the entry needs the usual.
      const checkpointer = startWorker({ checkpointOnly: true }, options.workerFile ? CHECKPOINT_WORKER_LIMITS : undefined);
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

  function spawn(): Worker {
    const started = startWorker();
    let failure: NodeJS.ErrnoException | null = null;
    started.on('message', (message: WorkerToHost) => onMessage(started, message));
    started.on('error', (error) => {
      failure = error;
    });
    started.on('exit', () => {
      if (worker === started) worker = null;
      onWorkerGone(failure);
    });
    return started;
  }

  function ensureWorker(): Worker {
    worker ??= spawn();
    return worker;
  }

  function send(target: Worker, message: HostToWorker) {
    target.postMessage(message);
  }

  function onMessage(from: Worker, message: WorkerToHost) {
    switch (message.type) {
      case 'event': {
        state = message.state;
        // The finished event's status is recomputed here so its last-success times are current.
        emit(message.event.type === 'finished' ? { ...message.event, status: status() } : message.event);
        break;
      }
      case 'state':
        state = message.state;
        break;
      case 'run-done':
      case 'run-failed': {
        const run = pending.get(message.id);
        pending.delete(message.id);
        if (!run) break;
        if (message.type === 'run-done') run.resolve(message.result);
        else run.reject(fromWireError(message.error));
        if (pending.size === 0) startCheckpointsAfterRuns();
        break;
      }
      case 'token': {
        const scope = message.scope ?? { kind: 'app' as const };
        const answer: Promise<string | Awaited<ReturnType<TokenManager['grant']>>> =
          message.op === 'get' ? options.tokens.get(scope) : message.op === 'grant' ? options.tokens.grant(scope) : options.tokens.appJwt();
        answer.then(
          (value) => send(from, { type: 'token-reply', id: message.id, ok: true, value }),
          (error: unknown) => send(from, { type: 'token-reply', id: message.id, ok: false, error: toWireError(error) }),
        );
        break;
      }
      case 'token-invalidate':
        options.tokens.invalidate(message.scope, message.token);
        break;
      case 'token-clear':
        options.tokens.clear();
        break;
      case 'checkpoint': {
        const { id } = message;
        if (pending.size > 0) checkpointsAfterRuns.push(() => checkpointFor(from, id));
        else checkpointFor(from, id);
        break;
      }
      case 'closed':
        void from.terminate();
        break;
    }
  }

  /** The worker ended: runs it still owed are retried (out of memory, with a larger heap) or reported failed. */
  function onWorkerGone(failure: NodeJS.ErrnoException | null) {
    // A load it committed is checkpointed all the same.
    startCheckpointsAfterRuns();
    const outOfMemory = failure?.code === 'ERR_WORKER_OUT_OF_MEMORY';
    const runs = [...pending.entries()];
    if (runs.length === 0) return;
    if (outOfMemory && !closed && heapLimitMb < maxHeapLimitMb) {
      // The larger limit stays for later runs: this registry needs it.
      const previous = heapLimitMb;
      heapLimitMb = Math.min(maxHeapLimitMb, heapLimitMb * 2);
      options.log?.(`the sync ran out of its ${previous} MB heap; retrying in a new worker with ${heapLimitMb} MB`);
      const next = ensureWorker();
      for (const [id, run] of runs) {
        send(next, { type: 'run', id, resources: run.resources, installations: run.installations, clockOffsetMs: clockOffsetMs() });
      }
      return;
    }
    pending.clear();
    const reason = closed
      ? 'the sync was stopped: its connection was closed'
      : outOfMemory
        ? `the sync ran out of memory (heap limit ${heapLimitMb} MB)`
        : `the sync worker stopped${failure ? `: ${failure.message}` : ''}`;
    const at = new Date(clock.now()).toISOString();
    const everyResource = new Set(runs.flatMap(([, run]) => run.resources));
    if (!closed) {
      // Recorded per resource as a failed step would be; the data and its success times stay.
      for (const resource of everyResource) cache.write.markFailure(resource, reason);
    }
    state = { ...state, running: false, progress: null, lastError: reason };
    for (const [, run] of runs) {
      const results = Object.fromEntries(run.resources.map((r) => [r, { status: 'failed' as const, error: reason }]));
      const result: SyncRunResult = { ok: false, offline: false, startedAt: at, finishedAt: at, results };
      run.resolve(result);
      if (!closed) emit({ type: 'finished', result, status: status() });
    }
  }

  async function run(requested: readonly SyncResource[] = SYNC_RESOURCES): Promise<SyncRunResult> {
    const resources = [...new Set(requested.filter((r) => (SYNC_RESOURCES as readonly string[]).includes(r)))];
    if (resources.length === 0) throw new Error(`nothing to sync: known resources are ${SYNC_RESOURCES.join(', ')}`);
    if (closed) throw new Error('the sync engine is closed');
    // Running from now on, as the in-process engine would say; the worker's own state follows.
    state = { ...state, running: true };
    let installations: InstallationRef[];
    try {
      installations = await options.installations();
    } catch (error) {
      if (pending.size === 0) state = { ...state, running: false };
      throw error;
    }
    if (closed) throw new Error('the sync engine is closed');
    const target = ensureWorker();
    const id = ++nextRunId;
    return new Promise<SyncRunResult>((resolve, reject) => {
      pending.set(id, { resources, installations, resolve, reject });
      send(target, { type: 'run', id, resources, installations, clockOffsetMs: clockOffsetMs() });
    });
  }

  // The worker keeps the grants it was given until they near expiry: a clear (the key re-imported)
  // must reach it, or it would go on with a token of the old key until the registry refused it.
  const stopHearingClears = options.tokens.onClear(() => {
    if (worker) send(worker, { type: 'tokens-cleared' });
  });

  const interval = syncInterval(() => run());
  return {
    run,
    background: async () => void (await Promise.all(checkpointing)),
    status,
    subscribe,
    start: interval.start,
    stop: interval.stop,
    /** Stops the interval and the worker. A run in progress is abandoned (and reported failed): the cache keeps its previous data. */
    async close() {
      interval.stop();
      stopHearingClears();
      closed = true;
      // A checkpoint under way is let finish (it takes seconds at most): it is SQLite's own, on its own connection.
      startCheckpointsAfterRuns();
      const checkpoints = Promise.all(checkpointing);
      const current = worker;
      if (!current) return void (await checkpoints);
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
