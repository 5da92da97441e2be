// The desk service: every method of shared/desk/api.ts behind one `dispatch(method, rawInput)`.
// Input is validated against the contract first (invalid → `invalid_input` listing every problem,
// nothing touched); reads come from the active connection's cache, marked with how fresh they are
// and whether the registry is reachable; writes go through the registry client and fail with
// `offline` when it is not. Hosts (Electron IPC, the web host) only carry calls and events.
//
// This module wires the service together; the methods' handlers are in methods/, one module per
// area of the contract; the connections (and their keys) are managed in connection-manager.ts,
// the live warehouse view is warehouse-view.ts, the writes writes.ts.
import { randomUUID } from 'node:crypto';
import type { DeskEvent } from '@shared/desk/api';
import { systemClock } from '../platform/clock';
import { createConnectionKeys } from './connection-keys';
import { createConnectionManager } from './connection-manager';
import { openConnectionStore, type ConnectionStore } from './connections';
import { createArtifactStore } from './artifacts';
import { createKeyImports } from './key-imports';
import { createEventHub } from './events';
import type { KeychainAvailability } from './key-vault';
import { deskPaths } from './paths';
import { createOnlineTracker, type OnlineTracker } from './registry-calls';
import { openSettingsStore } from './settings';
import { createBackOffice, type BackOffice } from './back-office';
import { historyStatus } from './verification/status';
import type { DeskService, DeskServiceOptions } from './service-api';
import type { ConnectionManager } from './connection-manager-api';
import { publishSyncEvent } from './sync-events';
import type { ServiceContext } from '@desk/methods/context';
import { dispatcher } from '@desk/methods/dispatch';
import { settingsMethods } from '@desk/methods/settings';
import { connectionMethods } from '@desk/methods/connections';
import { syncMethods } from '@desk/methods/sync';
import { syncedReadMethods } from '@desk/methods/synced-reads';
import { retirementMethods } from '@desk/methods/retirements';
import { warehouseMethods } from '@desk/methods/warehouse';
import { exportMethods } from '@desk/methods/export';
import { backOfficeMethods } from '@desk/methods/back-office';

export type { DeskService, DeskServiceOptions } from './service-api';

/** Back-office writes that change an app's installations. */
const INSTALLATION_WRITES: ReadonlySet<string> = new Set([
  'operatorInstallApp',
  'operatorSetInstallationStatus',
  'operatorRemoveInstallation',
]);

/** The connection manager, its sync events published and followed by the back office's sync. */
function openConnections(
  options: DeskServiceOptions,
  parts: Pick<ServiceContext, 'paths' | 'clock' | 'log' | 'hub' | 'runsEnded' | 'syncIntervalMs'> & {
    connectionStore: ConnectionStore;
    tracker: OnlineTracker & { assumeOnline(): void };
    keychain: KeychainAvailability;
    backOffice: () => BackOffice;
  },
): ConnectionManager {
  const { paths, clock, log, hub, tracker, runsEnded, keychain, syncIntervalMs } = parts;
  // The back office is made after the connections (it reads the active one), before any sync ends.
  const syncBackOffice = () => parts.backOffice().sync();
  const connections = createConnectionManager({
    connections: parts.connectionStore,
    paths,
    clock,
    keys: createConnectionKeys({
      secretsDir: paths.secretsDir,
      log,
      ...(options.secretStoreFactory ? { secretStoreFactory: options.secretStoreFactory } : {}),
    }),
    keychain,
    tracker,
    publish: (event) => hub.publish(event),
    onSyncEvent: (event) => {
      if (event.type === 'finished') runsEnded.count++;
      publishSyncEvent(hub, tracker, event, { ...runsEnded }, () => connections.active && historyStatus(connections.active.cache.db));
      // The back office's own tables follow each successful seed sync (connections with an operator).
      if (event.type === 'finished' && event.result.ok)
        void syncBackOffice().then(
          () => hub.publish({ type: 'backOffice.synced' }),
          () => {},
        );
    },
    syncIntervalMs,
    autoSync: options.autoSync !== false,
    seedDemo: options.seedDemo,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.syncTuning ? { syncTuning: options.syncTuning } : {}),
    ...(options.syncWorker !== undefined ? { syncWorker: options.syncWorker } : {}),
    ...(options.certificateWorkers ? { certificateWorkers: options.certificateWorkers } : {}),
    ...(options.probe !== undefined ? { probe: options.probe } : {}),
    log,
  });
  return connections;
}

export async function createDeskService(options: DeskServiceOptions): Promise<DeskService> {
  const clock = options.clock ?? systemClock;
  const log = options.log ?? (() => {});
  const paths = deskPaths(options.dataDir);
  const settings = openSettingsStore(paths.settingsFile);
  const connectionStore = openConnectionStore(paths.connectionsFile);
  const hub = createEventHub((error) => log(`event listener failed: ${(error as Error).message}`));
  const keychain: KeychainAvailability = (await options.probeKeychain?.()) ?? {
    available: false,
    reason: 'no keychain support in this build',
  };
  const tracker = createOnlineTracker((online) => {
    hub.publish({ type: 'online.changed', online });
    if (online) resyncAfterOutage();
  });
  // Sync runs ended in this service's life (SyncStatus.runsEnded), across connection switches.
  const runsEnded = { service: randomUUID(), count: 0 };
  const syncIntervalMs = () => settings.get().syncIntervalMinutes * 60_000;
  const artifacts = createArtifactStore(clock);
  const keyImports = createKeyImports(clock);

  const parts = { paths, clock, log, hub, connectionStore, tracker, runsEnded, keychain, syncIntervalMs, backOffice: () => backOffice };
  const connections = openConnections(options, parts);
  await connections.start(options.remote);

  /**
   * The registry answers again: a sync that failed while it was away is run again at once, so the
   * screens and the sync status recover by themselves (the interval's next run can be many minutes
   * away, and the probe's backoff has grown after a long outage).
   */
  function resyncAfterOutage(): void {
    const active = connections.active;
    if (!active || active.sync.status().lastError === null) return;
    void active.sync.run().catch((error: unknown) => log(`sync after reconnecting failed: ${(error as Error).message}`));
  }

  /**
   * An installation made, suspended, resumed or removed in the back office may be one of this
   * desk's own app: its installation list (the warehouse picker, Settings) follows at once, as
   * "Refresh installations" would.
   */
  function followInstallationChange(endpoint: string): void {
    if (!INSTALLATION_WRITES.has(endpoint)) return;
    const id = connections.active?.connection.id;
    if (id === undefined) return;
    void connections.refreshInstallations({ id }).catch((error: unknown) => log(`refreshing installations: ${(error as Error).message}`));
  }

  const backOffice = createBackOffice({
    active: () => connections.active,
    tracker,
    publish: (event) => {
      hub.publish(event);
      if (event.type === 'backOffice.changed') followInstallationChange(event.endpoint);
    },
    clock,
    log,
    ...options.backOffice,
  });

  const ctx: ServiceContext = {
    options,
    clock,
    log,
    paths,
    settings,
    hub,
    tracker,
    artifacts,
    keyImports,
    connections,
    backOffice,
    runsEnded,
    syncIntervalMs,
    cache: () => connections.requireActive().cache,
    fresh: (value) => ({ ...value, offline: !tracker.online }),
    writeContext: () => ({
      runtime: connections.requireActive(),
      tracker,
      clock,
      publish: (event) => hub.publish(event),
      ...(options.follow ? { follow: options.follow } : {}),
    }),
  };
  const dispatch = dispatcher(
    {
      ...settingsMethods(ctx),
      ...connectionMethods(ctx),
      ...syncMethods(ctx),
      ...syncedReadMethods(ctx),
      ...retirementMethods(ctx),
      ...warehouseMethods(ctx),
      ...exportMethods(ctx),
      ...backOfficeMethods(ctx),
    },
    log,
  );

  return {
    dispatch,
    call: (method, input) => dispatch(method, input) as never,
    onEvent: (listener: (event: DeskEvent) => void) => hub.subscribe(listener),
    settings,
    paths,
    artifacts,
    keyImports,
    get embedded() {
      return connections.embedded;
    },
    get registryClient() {
      return connections.active?.client ?? null;
    },
    syncBackOffice: () => backOffice.sync(),
    close: () => connections.close(),
  };
}
