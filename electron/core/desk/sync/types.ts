// What a sync engine is to its callers: the in-thread engine (engine.ts) and the worker thread's
// host (worker/host.ts) both answer to this, and the connection runtime cannot tell them apart.
import type { SyncProgress, SyncResource, EngineSyncStatus } from '@shared/desk/api';
import type { StepOutcome } from './context';

export type ResourceResult = StepOutcome | { status: 'failed'; error: string } | { status: 'not_run'; reason: string };

export interface SyncRunResult {
  ok: boolean;
  offline: boolean;
  startedAt: string;
  finishedAt: string;
  results: Partial<Record<SyncResource, ResourceResult>>;
  /** Whether the pass found the app holding examiner:read (absent: the pass could not ask). */
  examinerRead?: boolean;
}

export type SyncEngineEvent =
  | { type: 'progress'; progress: SyncProgress }
  | { type: 'finished'; result: SyncRunResult; status: EngineSyncStatus }
  | { type: 'online'; online: boolean };

export interface SyncEngine {
  /** Syncs the given resources (default all); engine.ts says how overlapping calls combine. */
  run(resources?: readonly SyncResource[]): Promise<SyncRunResult>;
  status(): EngineSyncStatus;
  subscribe(listener: (event: SyncEngineEvent) => void): () => void;
  /** Runs every `intervalMs` in the background (and once now unless `immediately` is false). */
  start(intervalMs: number, options?: { immediately?: boolean }): void;
  stop(): void;
  /** Stops the interval and waits for a run in progress. */
  close(): Promise<void>;
}
