// Everything that exists while one connection is active: its registry client (with its token
// manager), its cache file and its sync engine. Closing it stops the sync and closes the cache;
// the client, and the tokens it holds, stay the connection's (connectionClient).
import { isAllowedRegistryUrl, REGISTRY_URL_RULE } from '@shared/desk/api';
import type { Clock } from '../platform/clock';
import { fetchTransport, type FetchLike } from './client/http';
import { transportFor } from './client/node-http';
import { createRegistryClient, type RegistryClient } from './client/registry-client';
import { createTokenManager } from './client/tokens';
import { openDeskCache, type DeskCache } from './cache';
import type { ConnectionKeys } from './connection-keys';
import type { StoredConnection } from './connections';
import type { DeskPaths } from './paths';
import { DESK_CLIENT_SETTINGS } from './client-settings';
import { DeskFailure } from './errors';
import type { SyncTuning } from './sync/context';
import { createSyncEngine } from './sync/engine';
import type { SyncEngine, SyncEngineEvent } from './sync/types';
import { createWorkerSyncEngine, type SyncWorkerSettings } from './sync/worker/host';
import { guardVerifiedRecords } from './verification/guard';
import { pinReviewedKey } from './verification/pin';

export interface ConnectionRuntime {
  connection: StoredConnection;
  client: RegistryClient;
  cache: DeskCache;
  sync: SyncEngine;
  /**
   * The embedded registry's certificates without HTTP, when this is its connection (the same bytes
   * as getRetirementPdf; see embedded.ts); a remote registry's come through the client.
   */
  localCertificate?: (retirementId: string) => Promise<Uint8Array>;
  close(): Promise<void>;
}

/** The keys a connection being added signs with until they are stored; null once they are. */
export type GivenKeys = () => { app: string; operator: string | undefined } | null;

/**
 * A stored connection's client: it signs with the connection's keys, read from their store when a
 * token is minted, or with the keys `given` answers while it answers some (a connection being
 * added, whose keys are stored only once the registry accepted them).
 */
export function clientForConnection(
  connection: StoredConnection,
  deps: { keys: ConnectionKeys; clock: Clock; fetch?: FetchLike },
  given: GivenKeys = () => null,
): RegistryClient {
  const { keys } = deps;
  return clientFor({
    baseUrl: connection.baseUrl,
    appId: connection.appId,
    loadPrivateKey: async () => given()?.app ?? keys.loaderFor(connection)(),
    ...(connection.operatorId !== undefined
      ? {
          operator: {
            operatorId: connection.operatorId,
            loadPrivateKey: async () => given()?.operator ?? keys.operatorLoaderFor(connection)(),
          },
        }
      : {}),
    clock: deps.clock,
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
  });
}

/** A client for a connection; used alone (before a connection is saved) and inside a runtime. */
export function clientFor(options: {
  baseUrl: string;
  appId: string;
  loadPrivateKey: () => Promise<string>;
  /** The operator account for the operator endpoints, when the connection has one. */
  operator?: { operatorId: string; loadPrivateKey: () => Promise<string> };
  clock: Clock;
  fetch?: FetchLike;
}): RegistryClient {
  // node:http(s), for the token requests and the calls alike (one pool of connections): it sends a
  // request again once when a kept-alive connection the registry closed drops it unanswered (fetch
  // does not for a POST); an injected fetch (tests that alter answers) is used as it is.
  const transport = options.fetch ? fetchTransport(options.fetch) : transportFor(options.baseUrl);
  // The client measures the registry's clock from its answers; the tokens stamp their JWTs on it.
  let client: RegistryClient | undefined;
  const tokens = createTokenManager({
    baseUrl: options.baseUrl,
    appId: options.appId,
    // No JWT is signed (so no token is asked for, or used) for an address that would carry it in clear.
    loadPrivateKey: () => {
      if (!isAllowedRegistryUrl(options.baseUrl)) return Promise.reject(new DeskFailure('invalid_input', REGISTRY_URL_RULE));
      return options.loadPrivateKey();
    },
    ...(options.operator
      ? {
          operator: {
            operatorId: options.operator.operatorId,
            loadPrivateKey: () => {
              if (!isAllowedRegistryUrl(options.baseUrl)) return Promise.reject(new DeskFailure('invalid_input', REGISTRY_URL_RULE));
              return options.operator!.loadPrivateKey();
            },
          },
        }
      : {}),
    clock: options.clock,
    registryClockOffsetMs: () => client?.clockOffsetMs() ?? null,
    transport,
  });
  client = createRegistryClient({
    baseUrl: options.baseUrl,
    tokens,
    clock: options.clock,
    ...DESK_CLIENT_SETTINGS,
    transport,
    // the feed's pages are read through fetch (callBytes): the injected one, where a test gives one
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  return client;
}

export function openConnectionRuntime(options: {
  connection: StoredConnection;
  /**
   * The connection's client (clientFor): its token manager is the sync's, so a token it already
   * holds (start-up asked the app's facts with it) is the one the sync uses.
   */
  client: RegistryClient;
  paths: DeskPaths;
  clock: Clock;
  fetch?: FetchLike;
  syncTuning?: Partial<SyncTuning>;
  /**
   * Where the sync runs: a worker thread (the default; see sync/worker/host.ts) or, with false, on
   * this thread — which an injected `fetch` requires, since a function cannot reach another thread.
   */
  syncWorker?: SyncWorkerSettings | false;
  onSyncEvent: (event: SyncEngineEvent) => void;
  log?: (line: string) => void;
  localCertificate?: (retirementId: string) => Promise<Uint8Array>;
}): ConnectionRuntime {
  const { connection, client } = options;
  const cacheFile = options.paths.cacheFile(connection.id);
  const cache = openDeskCache(cacheFile, { clock: options.clock });
  // the desk service writes the cache too (the back office, a finalized retirement): guarded as the sync's writes are
  guardVerifiedRecords(cache.db);
  pinReviewedKey(cache.db, connection.logKey, options.clock.now());
  const common = {
    cache,
    clock: options.clock,
    // Read at every run: refreshing the installations changes what the next run covers.
    installations: () => runtime.connection.installations,
    ...(options.syncTuning ? { tuning: options.syncTuning } : {}),
  };
  if (options.fetch && options.syncWorker !== false) throw new Error('an injected fetch needs the sync on this thread (syncWorker: false)');
  const sync =
    options.syncWorker === false
      ? createSyncEngine({ ...common, client })
      : createWorkerSyncEngine({
          ...common,
          ...options.syncWorker,
          cacheFile,
          baseUrl: connection.baseUrl,
          tokens: client.tokens,
          ...(options.log ? { log: options.log } : {}),
        });
  const unsubscribe = sync.subscribe(options.onSyncEvent);
  const runtime: ConnectionRuntime = {
    connection,
    client,
    cache,
    sync,
    ...(options.localCertificate ? { localCertificate: options.localCertificate } : {}),
    async close() {
      await sync.close();
      unsubscribe();
      cache.close();
    },
  };
  return runtime;
}
