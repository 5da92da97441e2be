// Messages between the sync engine's host (the main thread, electron/core/desk/sync/worker/host.ts)
// and the worker thread that runs the engine (entry.ts). Both ends are our own code in one process,
// so the messages are typed rather than validated; what crosses is plain data (structured clone).
import type { SyncResource, SyncStatus } from '@shared/desk/api';
import type { RegistryClientErrorKind } from '@desk/client/errors';
import type { TokenGrant, TokenScope } from '@desk/client/tokens';
import type { InstallationRef, SyncTuning, ThreadScript } from '../context';
import type { SyncEngineEvent, SyncRunResult } from '../types';

/** What the worker is started with (worker_threads workerData). */
export interface SyncWorkerData {
  cacheFile: string;
  baseUrl: string;
  tuning?: Partial<SyncTuning>;
  /** host clock − Date.now() when the worker starts; each run brings a fresh one. */
  clockOffsetMs: number;
  /** Started only to checkpoint the cache's WAL after a first sync's load, then to end (cache/deferred-checkpoint.ts). */
  checkpointOnly?: boolean;
  /** Where its helper threads start from (page-reader.ts `helperScript`): the page reader, the history replay. */
  script?: ThreadScript;
  /** False: runs skip the registry's history check (a bench measuring the sync apart from it). */
  verifyHistory?: boolean;
  /** Started only to prepare a first sync's feed pages (page-reader.ts). */
  pageReader?: { examinerRead: boolean };
  /** Started only to replay the history check's leaves from this registry (replay-thread.ts). */
  leafReplay?: { baseUrl: string };
  /** Replays of at least this many leaves run on a thread of their own (default REPLAY_THREAD_LEAVES). */
  replayThreadLeaves?: number;
  /** A long history replay runs on the sync's thread (no core free for its own: helper-threads.ts). */
  noReplayThread?: boolean;
  /** A first sync's feed pages are read on the sync's thread (no core free for a reader: helper-threads.ts). */
  noPageReader?: boolean;
}

/** An error that crossed the thread boundary: a client error keeps its kind, so "unreachable" still reads. */
export interface WireError {
  message: string;
  kind?: RegistryClientErrorKind;
  status?: number;
  endpoint?: string;
  messages?: string[];
  retryAfterS?: number;
  reason?: string;
}

export type HostToWorker =
  | { type: 'run'; id: number; resources: SyncResource[]; installations: InstallationRef[]; clockOffsetMs: number }
  | { type: 'token-reply'; id: number; ok: true; value: string | TokenGrant }
  | { type: 'token-reply'; id: number; ok: false; error: WireError }
  | { type: 'checkpoint-done'; id: number }
  /** No run is left and this worker is idle: it checkpoints its load itself, then answers 'checkpointed'. */
  | { type: 'checkpoint-here'; id: number }
  /** The host's tokens were cleared (the key re-imported): the worker drops the grants it keeps. */
  | { type: 'tokens-cleared' }
  | { type: 'close' };

/** The engine's status fields that only the worker knows (lastSuccess is read by the host from the cache). */
export type EngineState = Pick<SyncStatus, 'running' | 'progress' | 'lastError' | 'online'>;

export type WorkerToHost =
  | { type: 'event'; event: SyncEngineEvent; state: EngineState }
  | { type: 'state'; state: EngineState }
  | { type: 'run-done'; id: number; result: SyncRunResult }
  | { type: 'run-failed'; id: number; error: WireError }
  | { type: 'token'; id: number; op: 'get' | 'grant' | 'appJwt'; scope?: TokenScope }
  | { type: 'token-invalidate'; scope: TokenScope; token?: string }
  | { type: 'token-clear' }
  | { type: 'checkpoint'; id: number }
  | { type: 'checkpointed'; id: number }
  | { type: 'closed' };
