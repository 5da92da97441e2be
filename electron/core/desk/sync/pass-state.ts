// One sync pass's state: the engine's own between runs (what its status reports) and one run's
// record as it goes, with the few ways a pass records a failure or the registry going offline.
import type { SyncProgress, SyncResource } from '@shared/desk/api';
import type { Clock } from '@platform/clock';
import { RegistryClientError } from '@desk/client/errors';
import type { RegistryClient } from '@desk/client/registry-client';
import type { DeskCache } from '@desk/cache';
import type { HistoryCheck } from '@desk/verification/history-check';
import type { ExaminerProbe } from '@desk/examiner-probe';
import type { InstallationRef, PageReaderThread, SyncTuning } from './context';
import type { SyncEngineEvent, SyncRunResult } from './types';

/** The engine's state between runs: what its status reports, and what one pass leaves the next. */
export interface PassEngineState {
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
  state: PassEngineState;
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
  /** How the pass learnt the examiner grant: the internal list's page it asked, for its step to take. */
  probe: ExaminerProbe | null;
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
