// The sync engine: brings the desk cache up to date with the registry, resource by resource, on
// demand and on an interval. Runs never overlap: run() while a run is going joins it when it
// already covers the resources asked for, and otherwise queues one follow-up run (requests made
// meanwhile are merged into that same follow-up). A resource that fails keeps its previous data;
// when the registry is unreachable the run stops, the engine reports offline, and the cache keeps
// serving reads with their asOf times. This file schedules the runs; one run is pass.ts.
import { GATE_CAP } from '../client/request-gate';
import { SYNC_RESOURCES, type SyncResource, type EngineSyncStatus } from '@shared/desk/api';
import type { Clock } from '@platform/clock';
import type { RegistryClient } from '../client/registry-client';
import type { DeskCache } from '../cache';
import type { InstallationRef, SyncTuning } from './context';
import type { SyncEngine, SyncRunResult } from './types';
import { syncInterval } from './interval';
import { syncListeners } from './listeners';
import type { PageReaderThread } from './context';
import { createHistoryCheck, type HistoryCheck } from '../verification/history-check';
import { runPass } from './pass';
import type { PassEngineState, PassEngine } from './pass-state';

export interface SyncEngineOptions {
  client: RegistryClient;
  cache: DeskCache;
  clock: Clock;
  /** The app's installations now (the connection may gain or lose some between runs). */
  installations: () => InstallationRef[] | Promise<InstallationRef[]>;
  tuning?: Partial<SyncTuning>;
  /** The registry's history, checked before each run writes and matched after it (verification/); false: not checked. */
  history?: HistoryCheck | false;
  /** How to start a first sync's feed page reader on a thread of its own (none: on the sync's thread). */
  pageReaderThread?: PageReaderThread;
}

export const DEFAULT_TUNING: SyncTuning = {
  pageSize: 100,
  // Requests queued at once: the client's gate (client/request-gate.ts) decides how many of them
  // are in flight, 8 to a registry on this machine and up to 128 over a network with round trips.
  concurrency: GATE_CAP,
  perProjectMaxAgeMs: 24 * 60 * 60 * 1000,
  retirementsFullEveryMs: 24 * 60 * 60 * 1000,
  feed: true,
  feedLimit: 1000,
};

/** The status from the engine's own state and the cache's last success per resource (dataAsOf is the oldest). */
export function syncStatusOf(
  state: Pick<EngineSyncStatus, 'running' | 'progress' | 'lastError' | 'online'>,
  lastSuccess: EngineSyncStatus['lastSuccess'],
): EngineSyncStatus {
  const times = Object.values(lastSuccess).filter((t): t is string => t !== null);
  return { ...state, lastSuccess, dataAsOf: times.length > 0 ? times.reduce((a, b) => (a < b ? a : b)) : null };
}

export function createSyncEngine(options: SyncEngineOptions): SyncEngine {
  const tuning: SyncTuning = { ...DEFAULT_TUNING, ...options.tuning };
  const { client, cache, clock } = options;
  const history = options.history === false ? null : (options.history ?? createHistoryCheck({ baseUrl: client.baseUrl, cache, clock }));
  const { emit, subscribe } = syncListeners();
  const state: PassEngineState = { progress: null, lastError: null, online: true, feedOffered: null, proponents: null };
  const engine: PassEngine = {
    client,
    cache,
    clock,
    tuning,
    history,
    installations: options.installations,
    ...(options.pageReaderThread ? { pageReaderThread: options.pageReaderThread } : {}),
    state,
    emit,
  };
  let current: { resources: Set<SyncResource>; promise: Promise<SyncRunResult> } | null = null;
  let queued: { resources: Set<SyncResource>; promise: Promise<SyncRunResult> } | null = null;

  function status(): EngineSyncStatus {
    const { progress, lastError, online } = state;
    return syncStatusOf({ running: current !== null, progress, lastError, online }, cache.lastSuccess());
  }

  function launch(resources: Set<SyncResource>): Promise<SyncRunResult> {
    const promise = runPass(engine, resources).then((result) => {
      current = null;
      emit({ type: 'finished', result, status: status() });
      return result;
    });
    current = { resources, promise };
    return promise;
  }

  function run(requested: readonly SyncResource[] = SYNC_RESOURCES): Promise<SyncRunResult> {
    const wanted = new Set(requested.filter((r) => (SYNC_RESOURCES as readonly string[]).includes(r)));
    if (wanted.size === 0) return Promise.reject(new Error(`nothing to sync: known resources are ${SYNC_RESOURCES.join(', ')}`));
    if (!current) return launch(wanted);
    if ([...wanted].every((r) => current!.resources.has(r))) return current.promise;
    if (queued) {
      for (const r of wanted) queued.resources.add(r);
      return queued.promise;
    }
    // The follow-up starts once the current run has finished; until then its set may still grow.
    const follow = { resources: wanted, promise: null as unknown as Promise<SyncRunResult> };
    follow.promise = current.promise.then(() => {
      queued = null;
      return launch(follow.resources);
    });
    queued = follow;
    return follow.promise;
  }

  const interval = syncInterval(() => run());
  return {
    run,
    status,
    subscribe,
    start: interval.start,
    stop: interval.stop,
    async close() {
      interval.stop();
      await queued?.promise.catch(() => {});
      await current?.promise.catch(() => {});
    },
  };
}
