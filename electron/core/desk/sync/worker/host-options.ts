// What the sync worker's host is started with (host.ts), and the worker's heap limits.
import type { Clock } from '@platform/clock';
import type { TokenManager } from '@desk/client/tokens';
import type { DeskCache } from '@desk/cache';
import type { InstallationRef, SyncTuning } from '../context';

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
export const CHECKPOINT_WORKER_LIMITS = { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 2 };
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
  /**
   * Whether a long history replay runs on a thread of its own (replay-thread.ts). Default: on a
   * machine of two cores or more (helper-threads.ts).
   */
  replayThread?: boolean;
  /** Replays of at least this many leaves are long (default REPLAY_THREAD_LEAVES; tests set 1). */
  replayThreadLeaves?: number;
  /**
   * Whether a first sync's feed pages are read on a thread of their own (page-reader.ts). Default:
   * where the machine has a core free for it (helper-threads.ts).
   */
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
