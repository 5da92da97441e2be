// The sync engine: brings the desk cache up to date with the registry, resource by resource, on
// demand and on an interval. Runs never overlap: run() while a run is going joins it when it
// already covers the resources asked for, and otherwise queues one follow-up run (requests made
// meanwhile are merged into that same follow-up). A resource that fails keeps its previous data;
// when the registry is unreachable the run stops, the engine reports offline, and the cache keeps
// serving reads with their asOf times.
import { GATE_CAP } from '../client/request-gate';
import { SYNC_RESOURCES, type SyncProgress, type SyncResource, type EngineSyncStatus } from '@shared/desk/api';
import type { Clock } from '@platform/clock';
import { RegistryClientError } from '../client/errors';
import type { RegistryClient } from '../client/registry-client';
import type { DeskCache } from '../cache';
import type { InstallationRef, StepContext, StepOutcome, SyncTuning } from './context';
import type { SyncEngine, SyncRunResult } from './types';
import { syncInterval } from './interval';
import { syncListeners } from './listeners';
import { FEED_RESOURCES, FeedNotOffered, syncFromFeed } from './feed';
import { SEED_STEPS } from '@desk/resources/list';
import type { StepRun } from '@desk/resources/kind';
import type { PageReaderThread } from './context';
import { createHistoryCheck, type BesideCheck, type HistoryCheck } from '../verification/history-check';
import { HistoryChanged } from '../verification/check';

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

const unreachable = (error: unknown) => error instanceof RegistryClientError && error.unreachable;
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function createSyncEngine(options: SyncEngineOptions): SyncEngine {
  const tuning: SyncTuning = { ...DEFAULT_TUNING, ...options.tuning };
  const { client, cache, clock } = options;
  const history = options.history === false ? null : (options.history ?? createHistoryCheck({ baseUrl: client.baseUrl, cache, clock }));
  const { emit, subscribe } = syncListeners();
  let current: { resources: Set<SyncResource>; promise: Promise<SyncRunResult> } | null = null;
  let queued: { resources: Set<SyncResource>; promise: Promise<SyncRunResult> } | null = null;
  let progress: SyncProgress | null = null;
  let lastError: string | null = null;
  let online = true;
  // Whether the registry offers the changes feed: unknown until the first run asks (once per
  // connection: each connection has its own engine).
  let feedOffered: boolean | null = null;

  const setOnline = (value: boolean) => {
    if (online === value) return;
    online = value;
    emit({ type: 'online', online });
  };

  // The proponents the organizations step read last, while no feed pass has changed project rows since.
  let proponents: string[] | null = null;

  /** Whether this connection's registry offers the feed and the desk uses it. */
  const usingFeed = () => tuning.feed && feedOffered === true;

  function status(): EngineSyncStatus {
    return syncStatusOf({ running: current !== null, progress, lastError, online }, cache.lastSuccess());
  }

  /** The run as the steps see it (resources/kind.ts). */
  function stepRun(wanted: ReadonlySet<SyncResource>, ahead: StepRun['ahead']): StepRun {
    return {
      wanted,
      ahead,
      feed: usingFeed(),
      proponents: () => {
        // The proponents (every project's JSON read: a tenth of a second at --scale 100) are read
        // again unless every feed pass since they were read found nothing changed.
        if (!usingFeed() || proponents === null) proponents = cache.proponentIds();
        return proponents;
      },
    };
  }

  async function execute(resources: Set<SyncResource>): Promise<SyncRunResult> {
    const startedAt = clock.now();
    const results: SyncRunResult['results'] = {};
    let offline = false;
    let resourceStart = startedAt;
    // When each step started (steps started alongside another share its start).
    const stepStarts = new Map<SyncResource, number>();
    const ctxBase = {
      client,
      cache,
      clock,
      tuning,
      ...(options.pageReaderThread ? { pageReaderThread: options.pageReaderThread } : {}),
      progress(resource: SyncResource, done: number, total: number | null) {
        const elapsed = clock.now() - (stepStarts.get(resource) ?? resourceStart);
        const etaMs = total !== null && done > 0 && total >= done ? Math.round((elapsed / done) * (total - done)) : null;
        progress = { resource, done, total, etaMs };
        emit({ type: 'progress', progress });
      },
    };
    let ctx: StepContext<DeskCache> | null = null;
    // A failed history check: every resource failed with its message, nothing more run or written.
    const checkFailed = (error: unknown) => {
      offline = unreachable(error);
      if (offline) setOnline(false);
      lastError = messageOf(error);
      for (const r of resources) results[r] = { status: 'failed', error: lastError };
    };
    const feedFirst = tuning.feed && feedOffered !== false && FEED_RESOURCES.some((r) => resources.has(r));
    // With the feed, the history is replayed while its pages download, and kept before the pass keeps
    // anything (ctx.beforeKeep); otherwise it is checked before the run writes.
    let beside: BesideCheck | null = null;
    try {
      const installations = await options.installations();
      // The check reads public endpoints: it needs no token, so it starts beside the grant (a round trip sooner).
      const checked = history && !feedFirst ? history.begin() : null;
      checked?.catch(() => {});
      const grant = await client.tokens.grant({ kind: 'app' }).catch(async (error: unknown) => {
        await checked?.catch(() => {});
        throw error;
      });
      if (history && feedFirst) beside = history.beside();
      else await checked;
      ctx = {
        ...ctxBase,
        installations,
        examinerRead: grant.permissions.examiner === 'READ',
        ...(beside ? { beforeKeep: beside.keep } : {}),
      };
      setOnline(true);
    } catch (error) {
      checkFailed(error);
    }
    let runError: string | null = null;
    const done = new Set<SyncResource>();
    if (ctx) {
      let feedKept = false;
      if (feedFirst) {
        resourceStart = clock.now();
        const proponentsBefore = proponents;
        try {
          // Until the pass is over, project rows may change: the proponents read last are then stale.
          proponents = null;
          const { outcomes, unchanged } = await syncFromFeed(ctx, tuning.feedLimit);
          feedOffered = true;
          feedKept = true;
          if (unchanged) proponents = proponentsBefore;
          for (const resource of FEED_RESOURCES) {
            const outcome = outcomes[resource]!;
            if (outcome.status === 'skipped') cache.write.markSkipped(resource);
            results[resource] = outcome;
            done.add(resource);
          }
        } catch (error) {
          if (beside?.threw(error)) {
            if (error instanceof HistoryChanged) history!.keepFailure(error);
            checkFailed(error);
            ctx = null;
          } else if (error instanceof FeedNotOffered) feedOffered = false;
          else {
            const message = `changes feed: ${messageOf(error)}`;
            runError = message;
            for (const resource of FEED_RESOURCES.filter((r) => resources.has(r))) {
              results[resource] = { status: 'failed', error: message };
              cache.write.markFailure(resource, message);
              done.add(resource);
            }
            if (unreachable(error)) {
              offline = true;
              setOnline(false);
            }
          }
        }
      }
      // A pass that failed kept nothing, perhaps not the replay beside it either: checked again before the steps write.
      if (ctx && history && beside && !feedKept && !offline) {
        try {
          await history.begin();
        } catch (error) {
          checkFailed(error);
          ctx = null;
        }
      }
    }
    if (ctx) {
      // Installed organizations' records come with the warehouses, from the installations' feeds.
      const wanted = new Set(resources);
      if (usingFeed() && wanted.has('organizations')) wanted.add('warehouses');
      // A first sync through the seed interface: the WAL is checkpointed once, after the run.
      const checkpoint = usingFeed() ? null : cache.write.deferCheckpointsIfEmpty();
      // Steps started alongside an earlier one: awaited in their turn, even once offline (they ran).
      const started = new Map<SyncResource, Promise<StepOutcome>>();
      const ahead = (resource: SyncResource, outcome: Promise<StepOutcome>) => {
        stepStarts.set(resource, clock.now());
        started.set(resource, outcome);
      };
      const run = stepRun(wanted, ahead);
      for (const { resource, step } of SEED_STEPS.filter((s) => wanted.has(s.resource) && !done.has(s.resource))) {
        const running = started.get(resource);
        if (offline && !running) {
          results[resource] = { status: 'not_run', reason: 'the registry is unreachable' };
          continue;
        }
        if (!running) {
          resourceStart = clock.now();
          stepStarts.set(resource, resourceStart);
        }
        try {
          const outcome = await (running ?? step(ctx, run));
          if (outcome.status === 'skipped') cache.write.markSkipped(resource);
          results[resource] = outcome;
        } catch (error) {
          const message = `${resource}: ${messageOf(error)}`;
          runError = message;
          results[resource] = { status: 'failed', error: message };
          cache.write.markFailure(resource, message);
          if (unreachable(error)) {
            offline = true;
            setOnline(false);
          }
        }
      }
      // Not waited for: the host runs it after the run (deferred-checkpoint.ts).
      if (checkpoint) void checkpoint();
      lastError = history?.end() ?? runError;
    }
    progress = null;
    const ok = Object.values(results).every((r) => r.status === 'ok' || r.status === 'skipped');
    return { ok, offline, startedAt: new Date(startedAt).toISOString(), finishedAt: new Date(clock.now()).toISOString(), results };
  }

  function launch(resources: Set<SyncResource>): Promise<SyncRunResult> {
    const promise = execute(resources).then((result) => {
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
