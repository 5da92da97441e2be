// Everything that exists while one connection is active: its registry client (with its token
// manager), its cache file and its sync engine. Closing it stops the sync and closes the cache;
// cached tokens are simply dropped with it.
import type { Clock } from '../clock';
import type { FetchLike } from '../client/http';
import { createRegistryClient, type RegistryClient } from '../client/registry-client';
import { createTokenManager } from '../client/tokens';
import { openDeskCache, type DeskCache } from './cache';
import type { StoredConnection } from './connections';
import type { DeskPaths } from './paths';
import { createSyncEngine, type SyncEngine, type SyncEngineEvent, type SyncTuning } from './sync/engine';

export interface ConnectionRuntime {
  connection: StoredConnection;
  client: RegistryClient;
  cache: DeskCache;
  sync: SyncEngine;
  close(): Promise<void>;
}

/** A client for a connection; used alone (before a connection is saved) and inside a runtime. */
export function clientFor(options: { baseUrl: string; appId: string; loadPrivateKey: () => Promise<string>; clock: Clock; fetch?: FetchLike }): RegistryClient {
  const tokens = createTokenManager({
    baseUrl: options.baseUrl,
    appId: options.appId,
    loadPrivateKey: options.loadPrivateKey,
    clock: options.clock,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  return createRegistryClient({
    baseUrl: options.baseUrl,
    tokens,
    clock: options.clock,
    // A desk call waits for at most a few quick retries; a long outage is reported as offline.
    retry: { maxAttempts: 2, baseDelayMs: 150, maxDelayMs: 500 },
    timeoutMs: 15_000,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}

export function openConnectionRuntime(options: {
  connection: StoredConnection;
  paths: DeskPaths;
  clock: Clock;
  loadPrivateKey: () => Promise<string>;
  fetch?: FetchLike;
  syncTuning?: Partial<SyncTuning>;
  onSyncEvent: (event: SyncEngineEvent) => void;
}): ConnectionRuntime {
  const { connection } = options;
  const client = clientFor({ baseUrl: connection.baseUrl, appId: connection.appId, loadPrivateKey: options.loadPrivateKey, clock: options.clock, ...(options.fetch ? { fetch: options.fetch } : {}) });
  const cache = openDeskCache(options.paths.cacheFile(connection.id), { clock: options.clock });
  const sync = createSyncEngine({
    client,
    cache,
    clock: options.clock,
    // Read at every run: refreshing the installations changes what the next run covers.
    installations: () => runtime.connection.installations,
    ...(options.syncTuning ? { tuning: options.syncTuning } : {}),
  });
  const unsubscribe = sync.subscribe(options.onSyncEvent);
  const runtime: ConnectionRuntime = {
    connection,
    client,
    cache,
    sync,
    async close() {
      await sync.close();
      unsubscribe();
      cache.close();
    },
  };
  return runtime;
}
