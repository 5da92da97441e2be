import type { SyncResource } from '@shared/desk/api';
import type { Clock } from '@platform/clock';
import type { RegistryClient } from '../client/registry-client';
import type { CoreCache } from '@desk/cache/core';

/** An installation of the app, as the connection knows it (shared/desk/api.ts installationInfo). */
export interface InstallationRef {
  id: string;
  organizationId: string;
  organizationName: string;
  permissions: Record<string, string>;
}

export interface SyncTuning {
  /** List page size asked of the registry (its cap is 100). */
  pageSize: number;
  /** Per-project requests queued at once (the client's gate decides how many are in flight). */
  concurrency: number;
  /** Per-project answers older than this are fetched again even when the project row is unchanged. */
  perProjectMaxAgeMs: number;
  /** Retirements are re-read in full (not only the newest) at least this often. */
  retirementsFullEveryMs: number;
  /** Use the registry's changes feed when it offers one (false: the seed interface only). */
  feed: boolean;
  /** Resources per changes-feed request. */
  feedLimit: number;
}

/**
 * What one resource step gets: the client, the cache, and a way to report progress. `Cache` is the
 * part of the cache the step uses (cache/core.ts): a kind's step names its own writers and queries,
 * the engine hands every step the whole cache.
 */
export interface StepContext<Cache extends CoreCache = CoreCache> {
  client: RegistryClient;
  cache: Cache;
  clock: Clock;
  tuning: SyncTuning;
  installations: InstallationRef[];
  /** Whether the app holds examiner:read (from its app token's permissions). */
  examinerRead: boolean;
  progress(resource: SyncResource, done: number, total: number | null): void;
  /** How to start a first sync's feed page reader on a thread of its own (none: on the sync's thread). */
  pageReaderThread?: PageReaderThread;
  /**
   * Awaited by the feed pass once its pages are read, before it keeps any row: the registry's
   * history, checked beside the download, is kept first (a failure throws; the pass keeps nothing).
   */
  beforeKeep?: () => Promise<void>;
  /** Work the history's check may do before `beforeKeep`, in a first sync's load (BesideCheck.aheadOfKeep). */
  aheadOfKeep?: () => (() => void) | null;
}

/** How the sync's thread starts another of its kind: its built script, or its source through tsx. */
export type ThreadScript = { file: string } | { bootstrapUrl: string; entryUrl: string };

/** The sync worker's own script and start data, to start its page reader from (worker/page-reader.ts). */
export interface PageReaderThread {
  script: ThreadScript;
  workerData: object;
}

export type StepOutcome = { status: 'ok'; written: number; deleted: number; note?: string } | { status: 'skipped'; reason: string };
