// The sync worker's thread as its host (host.ts) sees it: started, spawned with its listeners,
// and, once it ended, the runs it still owed retried with a larger heap or answered failed.
import { Worker } from 'node:worker_threads';
import type { ThreadScript } from '../context';
import type { SyncRunResult } from '../types';
import { CHECKPOINT_WORKER_LIMITS, SYNC_YOUNG_GENERATION_MB } from './host-options';
import { onMessage } from './host-messages';
import { clockOffsetMs, send, type Host, type PendingRun } from './host-state';
import { helperScript, sourceScript } from './page-reader';
import { helperThreadsFor } from './helper-threads';
import type { SyncWorkerData, WorkerToHost } from './protocol';

/** Starts a worker running this folder's entry: the sync's, or (`extra`) one with another job. */
export function startWorker(
  host: Host,
  extra: Partial<SyncWorkerData> = {},
  limits?: { maxOldGenerationSizeMb: number; maxYoungGenerationSizeMb: number },
): Worker {
  const { options } = host;
  const helpers = helperThreadsFor(options.baseUrl);
  const data: SyncWorkerData = {
    cacheFile: options.cacheFile,
    baseUrl: options.baseUrl,
    clockOffsetMs: clockOffsetMs(host),
    ...(options.tuning ? { tuning: options.tuning } : {}),
    ...(options.verifyHistory === false ? { verifyHistory: false } : {}),
    ...(options.replayThreadLeaves !== undefined ? { replayThreadLeaves: options.replayThreadLeaves } : {}),
    ...(!(options.replayThread ?? helpers.replay) ? { noReplayThread: true } : {}),
    ...(!(options.pageReaderThread ?? helpers.pageReader) ? { noPageReader: true } : {}),
    ...extra,
  };
  const resourceLimits = limits ?? { maxOldGenerationSizeMb: host.heapLimitMb, maxYoungGenerationSizeMb: SYNC_YOUNG_GENERATION_MB };
  const script: ThreadScript = options.workerFile ? { file: options.workerFile } : sourceScript();
  // What the worker starts its helper threads from (the page reader, the history replay).
  data.script = helperScript(options.workerFile);
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
