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
import type { SyncEngineEvent } from '../types';
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

/** Workers checkpointing a first sync's load (cache/deferred-checkpoint.ts). */
export interface HostCheckpoints {
  /** The sync worker asks for checkpoint `id`: started now, or once no run is left. */
  request(from: Worker, id: number): void;
  /** Starts those asked for during runs (none is left, or none will end). */
  startAfterRuns(): void;
  /** Settles once the checkpoints started so far have ended. */
  ended(): Promise<void>;
}

/** The host's side of its worker: shared by the thread's lifecycle, the message routing and the engine. */
export interface Host {
  readonly options: WorkerSyncEngineOptions;
  /** The runs sent to the worker and not answered yet, by id. */
  readonly pending: Map<number, PendingRun>;
  readonly maxHeapLimitMb: number;
  heapLimitMb: number;
  worker: Worker | null;
  state: EngineState;
  closed: boolean;
  readonly checkpoints: HostCheckpoints;
  emit(event: SyncEngineEvent): void;
  status(): EngineSyncStatus;
}

export const clockOffsetMs = (host: Host) => host.options.clock.now() - Date.now();

export function send(target: Worker, message: HostToWorker) {
  target.postMessage(message);
}

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

/** What the worker asks of the app's tokens: answered from the main thread's token manager. */
function answerToken(host: Host, from: Worker, message: Extract<WorkerToHost, { type: 'token' }>) {
  const { tokens } = host.options;
  const scope = message.scope ?? { kind: 'app' as const };
  const answer: Promise<string | Awaited<ReturnType<TokenManager['grant']>>> =
    message.op === 'get' ? tokens.get(scope) : message.op === 'grant' ? tokens.grant(scope) : tokens.appJwt();
  answer.then(
    (value) => send(from, { type: 'token-reply', id: message.id, ok: true, value }),
    (error: unknown) => send(from, { type: 'token-reply', id: message.id, ok: false, error: toWireError(error) }),
  );
}

/** A run the worker answered: its caller hears, and checkpoints wait no longer once none is left. */
function settleRun(host: Host, message: Extract<WorkerToHost, { type: 'run-done' | 'run-failed' }>) {
  const run = host.pending.get(message.id);
  host.pending.delete(message.id);
  if (!run) return;
  if (message.type === 'run-done') run.resolve(message.result);
  else run.reject(fromWireError(message.error));
  if (host.pending.size === 0) host.checkpoints.startAfterRuns();
}

/** Routes one message of the worker `from` to the part of the host it is for. */
export function onMessage(host: Host, from: Worker, message: WorkerToHost) {
  switch (message.type) {
    case 'event': {
      host.state = message.state;
      // The finished event's status is recomputed here so its last-success times are current.
      host.emit(message.event.type === 'finished' ? { ...message.event, status: host.status() } : message.event);
      break;
    }
    case 'state':
      host.state = message.state;
      break;
    case 'run-done':
    case 'run-failed':
      settleRun(host, message);
      break;
    case 'token':
      answerToken(host, from, message);
      break;
    case 'token-invalidate':
      host.options.tokens.invalidate(message.scope, message.token);
      break;
    case 'token-clear':
      host.options.tokens.clear();
      break;
    case 'checkpoint':
      host.checkpoints.request(from, message.id);
      break;
    case 'closed':
      void from.terminate();
      break;
  }
}

/** Starts a worker running this folder's entry: the sync's, or (`extra`) one with another job. */
export function startWorker(
  host: Host,
  extra: Partial<SyncWorkerData> = {},
  limits?: { maxOldGenerationSizeMb: number; maxYoungGenerationSizeMb: number },
): Worker {
  const { options } = host;
  const data: SyncWorkerData = {
    cacheFile: options.cacheFile,
    baseUrl: options.baseUrl,
    clockOffsetMs: clockOffsetMs(host),
    ...(options.tuning ? { tuning: options.tuning } : {}),
    ...(options.verifyHistory === false ? { verifyHistory: false } : {}),
    ...(options.replayThreadLeaves !== undefined ? { replayThreadLeaves: options.replayThreadLeaves } : {}),
    ...(options.pageReaderThread === false ? { noPageReader: true } : {}),
    ...extra,
  };
  const resourceLimits = limits ?? { maxOldGenerationSizeMb: host.heapLimitMb, maxYoungGenerationSizeMb: SYNC_YOUNG_GENERATION_MB };
  const script: ThreadScript = options.workerFile ? { file: options.workerFile } : sourceScript();
  // The worker starts its first sync's page reader from the same script (page-reader.ts).
  data.script = script;
  return 'file' in script
    ? new Worker(script.file, { workerData: data, resourceLimits })
    : new Worker(new URL(script.bootstrapUrl), { workerData: { ...data, entryUrl: script.entryUrl }, resourceLimits });
}

/** Starts a checkpointing worker: built, it needs little heap (it runs one statement); under tsx, compiling the entry needs the usual. */
export function startCheckpointer(host: Host): Worker {
  return startWorker(host, { checkpointOnly: true }, host.options.workerFile ? CHECKPOINT_WORKER_LIMITS : undefined);
}

function spawn(host: Host): Worker {
  const started = startWorker(host);
  let failure: NodeJS.ErrnoException | null = null;
  started.on('message', (message: WorkerToHost) => onMessage(host, started, message));
  started.on('error', (error) => {
    failure = error;
  });
  started.on('exit', () => {
    if (host.worker === started) host.worker = null;
    onWorkerGone(host, failure);
  });
  return started;
}

/** The sync worker, started when there is none (the first run, or after one ended). */
export function ensureWorker(host: Host): Worker {
  host.worker ??= spawn(host);
  return host.worker;
}

/** The worker ended: runs it still owed are retried (out of memory, with a larger heap) or reported failed. */
function onWorkerGone(host: Host, failure: NodeJS.ErrnoException | null) {
  // A load it committed is checkpointed all the same.
  host.checkpoints.startAfterRuns();
  const outOfMemory = failure?.code === 'ERR_WORKER_OUT_OF_MEMORY';
  const runs = [...host.pending.entries()];
  if (runs.length === 0) return;
  if (outOfMemory && !host.closed && host.heapLimitMb < host.maxHeapLimitMb) {
    // The larger limit stays for later runs: this registry needs it.
    const previous = host.heapLimitMb;
    host.heapLimitMb = Math.min(host.maxHeapLimitMb, host.heapLimitMb * 2);
    host.options.log?.(`the sync ran out of its ${previous} MB heap; retrying in a new worker with ${host.heapLimitMb} MB`);
    const next = ensureWorker(host);
    for (const [id, run] of runs) {
      send(next, { type: 'run', id, resources: run.resources, installations: run.installations, clockOffsetMs: clockOffsetMs(host) });
    }
    return;
  }
  host.pending.clear();
  const reason = host.closed
    ? 'the sync was stopped: its connection was closed'
    : outOfMemory
      ? `the sync ran out of memory (heap limit ${host.heapLimitMb} MB)`
      : `the sync worker stopped${failure ? `: ${failure.message}` : ''}`;
  failRuns(host, runs, reason);
}

/** Runs the ended worker still owed, each answered failed with `reason`. */
function failRuns(host: Host, runs: [number, PendingRun][], reason: string) {
  const { clock, cache } = host.options;
  const at = new Date(clock.now()).toISOString();
  const everyResource = new Set(runs.flatMap(([, run]) => run.resources));
  if (!host.closed) {
    // Recorded per resource as a failed step would be; the data and its success times stay.
    for (const resource of everyResource) cache.write.markFailure(resource, reason);
  }
  host.state = { ...host.state, running: false, progress: null, lastError: reason };
  for (const [, run] of runs) {
    const results = Object.fromEntries(run.resources.map((r) => [r, { status: 'failed' as const, error: reason }]));
    const result: SyncRunResult = { ok: false, offline: false, startedAt: at, finishedAt: at, results };
    run.resolve(result);
    if (!host.closed) host.emit({ type: 'finished', result, status: host.status() });
  }
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
      // A checkpoint under way is let finish (it takes seconds at most): it is SQLite's own, on its own connection.
      host.checkpoints.startAfterRuns();
      const checkpoints = host.checkpoints.ended();
      const current = host.worker;
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
