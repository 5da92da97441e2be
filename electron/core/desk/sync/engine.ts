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
import type { SyncEngine, SyncEngineEvent, SyncRunResult } from './types';
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

/** The engine's state between runs: what its status reports, and what one pass leaves the next. */
export interface EngineState {
  progress: SyncProgress | null;
  lastError: string | null;
  online: boolean;
  // Whether the registry offers the changes feed: unknown until the first run asks (once per
  // connection: each connection has its own engine).
  feedOffered: boolean | null;
  // The proponents the organizations step read last, while no feed pass has changed project rows since.
  proponents: string[] | null;
}

/** What a pass works with: the engine's settings and state, and its listeners. */
export interface PassEngine {
  client: RegistryClient;
  cache: DeskCache;
  clock: Clock;
  tuning: SyncTuning;
  history: HistoryCheck | null;
  installations: () => InstallationRef[] | Promise<InstallationRef[]>;
  pageReaderThread?: PageReaderThread;
  state: EngineState;
  emit(event: SyncEngineEvent): void;
}

/** One run as it goes: what each resource came to so far, and where the run stands. */
export interface Pass {
  engine: PassEngine;
  resources: Set<SyncResource>;
  results: SyncRunResult['results'];
  offline: boolean;
  runError: string | null;
  /** The resources the feed settled: the seed steps leave them. */
  done: Set<SyncResource>;
  resourceStart: number;
  // When each step started (steps started alongside another share its start).
  stepStarts: Map<SyncResource, number>;
}

export const unreachable = (error: unknown) => error instanceof RegistryClientError && error.unreachable;
export const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function setOnline(engine: PassEngine, value: boolean) {
  if (engine.state.online === value) return;
  engine.state.online = value;
  engine.emit({ type: 'online', online: value });
}

/** Whether this connection's registry offers the feed and the desk uses it. */
export const usingFeed = (engine: PassEngine) => engine.tuning.feed && engine.state.feedOffered === true;

/** A failed history check: every resource failed with its message, nothing more run or written. */
export function checkFailed(pass: Pass, error: unknown) {
  pass.offline = unreachable(error);
  if (pass.offline) setOnline(pass.engine, false);
  const message = messageOf(error);
  pass.engine.state.lastError = message;
  for (const r of pass.resources) pass.results[r] = { status: 'failed', error: message };
}

/** A resource the run could not sync: it keeps its previous data, and the cache records the failure. */
export function failResource(pass: Pass, resource: SyncResource, message: string) {
  pass.results[resource] = { status: 'failed', error: message };
  pass.engine.cache.write.markFailure(resource, message);
}

/** The registry is unreachable: the resources not started yet are not run. */
export function goOffline(pass: Pass) {
  pass.offline = true;
  setOnline(pass.engine, false);
}

/**
 * The feed part of a pass: the feed's resources in one go. The context to run the seed steps with,
 * or null when the registry's history failed its check (nothing more is run or written).
 */
export async function feedPass(
  pass: Pass,
  ctx: StepContext<DeskCache>,
  beside: BesideCheck | null,
): Promise<StepContext<DeskCache> | null> {
  const { cache, clock, tuning, state, history } = pass.engine;
  let feedKept = false;
  pass.resourceStart = clock.now();
  const proponentsBefore = state.proponents;
  try {
    // Until the pass is over, project rows may change: the proponents read last are then stale.
    state.proponents = null;
    const { outcomes, unchanged } = await syncFromFeed(ctx, tuning.feedLimit);
    state.feedOffered = true;
    feedKept = true;
    if (unchanged) state.proponents = proponentsBefore;
    for (const resource of FEED_RESOURCES) {
      const outcome = outcomes[resource]!;
      if (outcome.status === 'skipped') cache.write.markSkipped(resource);
      pass.results[resource] = outcome;
      pass.done.add(resource);
    }
  } catch (error) {
    if (beside?.threw(error)) {
      if (error instanceof HistoryChanged) history!.keepFailure(error);
      checkFailed(pass, error);
      return null;
    } else if (error instanceof FeedNotOffered) state.feedOffered = false;
    else feedFailed(pass, error);
  }
  // A pass that failed kept nothing, perhaps not the replay beside it either: checked again before the steps write.
  if (history && beside && !feedKept && !pass.offline) {
    try {
      await history.begin();
    } catch (error) {
      checkFailed(pass, error);
      return null;
    }
  }
  return ctx;
}

/** The feed failed (not its history): each of its resources asked for failed with it. */
function feedFailed(pass: Pass, error: unknown) {
  const message = `changes feed: ${messageOf(error)}`;
  pass.runError = message;
  for (const resource of FEED_RESOURCES.filter((r) => pass.resources.has(r))) {
    failResource(pass, resource, message);
    pass.done.add(resource);
  }
  if (unreachable(error)) goOffline(pass);
}

/** The run as the steps see it (resources/kind.ts). */
function stepRun(engine: PassEngine, wanted: ReadonlySet<SyncResource>, ahead: StepRun['ahead']): StepRun {
  const { state } = engine;
  return {
    wanted,
    ahead,
    feed: usingFeed(engine),
    proponents: () => {
      // The proponents (every project's JSON read: a tenth of a second at --scale 100) are read
      // again unless every feed pass since they were read found nothing changed.
      if (!usingFeed(engine) || state.proponents === null) state.proponents = engine.cache.proponentIds();
      return state.proponents;
    },
  };
}

/** The seed part of a pass: the resources the feed did not settle, step by step in run order. */
export async function seedSteps(pass: Pass, ctx: StepContext<DeskCache>): Promise<void> {
  const { engine } = pass;
  const { cache, clock, history } = engine;
  // Installed organizations' records come with the warehouses, from the installations' feeds.
  const wanted = new Set(pass.resources);
  if (usingFeed(engine) && wanted.has('organizations')) wanted.add('warehouses');
  // A first sync through the seed interface: the WAL is checkpointed once, after the run.
  const checkpoint = usingFeed(engine) ? null : cache.write.deferCheckpointsIfEmpty();
  // Steps started alongside an earlier one: awaited in their turn, even once offline (they ran).
  const started = new Map<SyncResource, Promise<StepOutcome>>();
  const ahead = (resource: SyncResource, outcome: Promise<StepOutcome>) => {
    pass.stepStarts.set(resource, clock.now());
    started.set(resource, outcome);
  };
  const run = stepRun(engine, wanted, ahead);
  for (const { resource, step } of SEED_STEPS.filter((s) => wanted.has(s.resource) && !pass.done.has(s.resource))) {
    const running = started.get(resource);
    if (pass.offline && !running) {
      pass.results[resource] = { status: 'not_run', reason: 'the registry is unreachable' };
      continue;
    }
    if (!running) {
      pass.resourceStart = clock.now();
      pass.stepStarts.set(resource, pass.resourceStart);
    }
    try {
      const outcome = await (running ?? step(ctx, run));
      if (outcome.status === 'skipped') cache.write.markSkipped(resource);
      pass.results[resource] = outcome;
    } catch (error) {
      const message = `${resource}: ${messageOf(error)}`;
      pass.runError = message;
      failResource(pass, resource, message);
      if (unreachable(error)) goOffline(pass);
    }
  }
  // Not waited for: the host runs it after the run (deferred-checkpoint.ts).
  if (checkpoint) void checkpoint();
  engine.state.lastError = history?.end() ?? pass.runError;
}

/** What every step's context holds, whatever the grant: progress is timed from the step's start. */
function contextBase(pass: Pass) {
  const { client, cache, clock, tuning, pageReaderThread, state, emit } = pass.engine;
  return {
    client,
    cache,
    clock,
    tuning,
    ...(pageReaderThread ? { pageReaderThread } : {}),
    progress(resource: SyncResource, done: number, total: number | null) {
      const elapsed = clock.now() - (pass.stepStarts.get(resource) ?? pass.resourceStart);
      const etaMs = total !== null && done > 0 && total >= done ? Math.round((elapsed / done) * (total - done)) : null;
      state.progress = { resource, done, total, etaMs };
      emit({ type: 'progress', progress: state.progress });
    },
  };
}

/**
 * Opens a pass: the app's grant, and the registry's history checked first (or, with the feed, its
 * check started beside the download). The steps' context, or null when either failed.
 */
async function openPass(pass: Pass, feedFirst: boolean): Promise<{ ctx: StepContext<DeskCache>; beside: BesideCheck | null } | null> {
  const { client, history } = pass.engine;
  try {
    const installations = await pass.engine.installations();
    // The check reads public endpoints: it needs no token, so it starts beside the grant (a round trip sooner).
    const checked = history && !feedFirst ? history.begin() : null;
    checked?.catch(() => {});
    const grant = await client.tokens.grant({ kind: 'app' }).catch(async (error: unknown) => {
      await checked?.catch(() => {});
      throw error;
    });
    let beside: BesideCheck | null = null;
    if (history && feedFirst) beside = history.beside();
    else await checked;
    const ctx: StepContext<DeskCache> = {
      ...contextBase(pass),
      installations,
      examinerRead: grant.permissions.examiner === 'READ',
      ...(beside ? { beforeKeep: beside.keep } : {}),
    };
    setOnline(pass.engine, true);
    return { ctx, beside };
  } catch (error) {
    checkFailed(pass, error);
    return null;
  }
}

/** One run of the engine over `resources`: the feed first where it serves, then the seed steps. */
export async function runPass(engine: PassEngine, resources: Set<SyncResource>): Promise<SyncRunResult> {
  const { clock, tuning, state } = engine;
  const startedAt = clock.now();
  const pass: Pass = {
    engine,
    resources,
    results: {},
    offline: false,
    runError: null,
    done: new Set(),
    resourceStart: startedAt,
    stepStarts: new Map(),
  };
  const feedFirst = tuning.feed && state.feedOffered !== false && FEED_RESOURCES.some((r) => resources.has(r));
  // With the feed, the history is replayed while its pages download, and kept before the pass keeps
  // anything (ctx.beforeKeep); otherwise it is checked before the run writes.
  const opened = await openPass(pass, feedFirst);
  let ctx = opened?.ctx ?? null;
  if (opened && feedFirst) ctx = await feedPass(pass, opened.ctx, opened.beside);
  if (ctx) await seedSteps(pass, ctx);
  state.progress = null;
  const ok = Object.values(pass.results).every((r) => r.status === 'ok' || r.status === 'skipped');
  return {
    ok,
    offline: pass.offline,
    startedAt: new Date(startedAt).toISOString(),
    finishedAt: new Date(clock.now()).toISOString(),
    results: pass.results,
  };
}

export function createSyncEngine(options: SyncEngineOptions): SyncEngine {
  const tuning: SyncTuning = { ...DEFAULT_TUNING, ...options.tuning };
  const { client, cache, clock } = options;
  const history = options.history === false ? null : (options.history ?? createHistoryCheck({ baseUrl: client.baseUrl, cache, clock }));
  const { emit, subscribe } = syncListeners();
  const state: EngineState = { progress: null, lastError: null, online: true, feedOffered: null, proponents: null };
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
