// The desk service: every method of shared/desk/api.ts behind one `dispatch(method, rawInput)`.
// Input is validated against the contract first (invalid → `invalid_input` listing every problem,
// nothing touched); reads come from the active connection's cache, marked with how fresh they are
// and whether the registry is reachable; writes go through the registry client and fail with
// `offline` when it is not. Hosts (Electron IPC, the web host) only carry calls and events.
//
// This module is the typed dispatch table; the connections (and their keys) are managed in
// connection-manager.ts, the live warehouse view is warehouse-view.ts, the writes writes.ts.
import { randomUUID } from 'node:crypto';
import { deskApi, deskMethods, type DeskEvent, type DeskMethod, type DeskOutput, type DeskResult, type SyncStatus } from '@shared/desk/api';
import type { Clock } from '@platform/clock';
import { systemClock } from '../platform/clock';
import { createConnectionKeys } from './connection-keys';
import { createConnectionManager } from './connection-manager';
import { openConnectionStore, type ConnectionStore } from './connections';
import { createArtifactStore, type ArtifactStore } from './artifacts';
import { exportCsv } from './csv-export';
import { createKeyImports, type KeyImports } from './key-imports';
import { DeskFailure, invalidInput, toDeskError } from './errors';
import { demoWalletKey } from './demo-keys';
import { finalizeHints } from './finalize-hints';
import { createEventHub, type EventHub } from './events';
import type { KeychainAvailability } from './key-vault';
import { deskPaths, type DeskPaths } from './paths';
import { createOnlineTracker, type OnlineTracker } from './registry-calls';
import { openSettingsStore, type SettingsStore } from './settings';
import type { ParsedDeskInput } from './types';
import { warehouseView } from './warehouse-view';
import { certificateBundle } from './certificate-bundle';
import * as writes from './writes';
import { auditEntries, type AuditPageRead } from './audit-entries';
import { createBackOffice, type BackOffice } from './back-office';
import { historyEvidence, historyStatus } from './verification/status';
import { historyEvidenceFile } from './verification/evidence-file';
import type { DeskService, DeskServiceOptions } from './service-api';
import type { ConnectionManager } from './connection-manager-api';
import { publishSyncEvent } from './sync-events';

export type { DeskService, DeskServiceOptions } from './service-api';

/** Back-office writes that change an app's installations. */
const INSTALLATION_WRITES: ReadonlySet<string> = new Set([
  'operatorInstallApp',
  'operatorSetInstallationStatus',
  'operatorRemoveInstallation',
]);

// A handler answers a value or a promise of one.
type Handler = (input: never) => unknown;
const knownMethods = new Set<string>(deskMethods);

/** What the desk API's method groups share: the service's stores, its connections and back office. */
export interface ServiceContext {
  options: DeskServiceOptions;
  clock: Clock;
  log: (line: string) => void;
  paths: DeskPaths;
  settings: SettingsStore;
  hub: EventHub;
  tracker: OnlineTracker;
  artifacts: ArtifactStore;
  keyImports: KeyImports;
  connections: ConnectionManager;
  backOffice: BackOffice;
  // Sync runs ended in this service's life (SyncStatus.runsEnded), across connection switches.
  runsEnded: { service: string; count: number };
  syncIntervalMs(): number;
  /** The active connection's cache, which answers every read. */
  cache(): ReturnType<ConnectionManager['requireActive']>['cache'];
  /** A read marked with whether the registry is reachable now. */
  fresh<T extends object>(value: T): T & { offline: boolean };
  /** What a registry write needs: the active connection, and how its events and follow-up go. */
  writeContext(): writes.WriteContext;
}

type Handlers = { [M in DeskMethod]: (input: ParsedDeskInput<M>) => Promise<DeskOutput<M>> | DeskOutput<M> };
/** The handlers of the desk API's methods in the areas named (the prefix before the dot). */
export type MethodGroup<Area extends string> = Pick<Handlers, Extract<DeskMethod, `${Area}.${string}`>>;

/** system.* and settings.*: what the desk is, and its settings (the sync interval restarts the sync). */
export function settingsMethods(ctx: ServiceContext): MethodGroup<'system' | 'settings'> {
  const { options, paths, settings, connections, hub, syncIntervalMs } = ctx;
  return {
    'system.info': () => ({ version: options.version, host: options.host, dataDir: paths.dataDir }),

    'settings.get': () => {
      const { theme, syncIntervalMinutes } = settings.get();
      return { theme, syncIntervalMinutes };
    },
    'settings.set': (input) => {
      const before = settings.get().syncIntervalMinutes;
      const next = settings.update({
        ...(input.theme ? { theme: input.theme } : {}),
        ...(input.syncIntervalMinutes ? { syncIntervalMinutes: input.syncIntervalMinutes } : {}),
      });
      const { active } = connections;
      if (active && next.syncIntervalMinutes !== before && options.autoSync !== false) {
        active.sync.stop();
        active.sync.start(syncIntervalMs(), { immediately: false });
      }
      // Every other open window or tab shows the new settings too.
      hub.publish({ type: 'settings.changed', theme: next.theme, syncIntervalMinutes: next.syncIntervalMinutes });
      return { theme: next.theme, syncIntervalMinutes: next.syncIntervalMinutes };
    },
  };
}

/** connections.*: the connection manager's, with the key handles resolved to the keys they name. */
export function connectionMethods(ctx: ServiceContext): MethodGroup<'connections'> {
  const { connections, keyImports } = ctx;
  return {
    'connections.list': () => connections.list(),
    'connections.addRemote': async ({ keyHandle, operator, ...input }) => {
      const added = await connections.addRemote({
        ...input,
        privateKeyPem: keyImports.get(keyHandle),
        ...(operator ? { operator: { id: operator.id, privateKeyPem: keyImports.get(operator.keyHandle, operator.id) } } : {}),
      });
      keyImports.release(keyHandle);
      if (operator) keyImports.release(operator.keyHandle);
      return added;
    },
    'connections.activate': (input) => connections.activate(input),
    'connections.remove': (input) => connections.remove(input),
    'connections.reimportKey': async ({ keyHandle, ...input }) => {
      const changed = await connections.reimportKey({ ...input, privateKeyPem: keyImports.get(keyHandle) });
      keyImports.release(keyHandle);
      return changed;
    },
    'connections.unlock': (input) => connections.unlock(input),
    'connections.refreshInstallations': (input) => connections.refreshInstallations(input),
    'connections.logKey': (input) => connections.logKey(input),
    'connections.startOver': (input) => connections.startOver(input),
  };
}

/** sync.*: the active connection's sync, its status and the registry history's evidence. */
export function syncMethods(ctx: ServiceContext): MethodGroup<'sync'> {
  const { connections, tracker, runsEnded, artifacts, clock, log, cache } = ctx;
  function syncStatus(): SyncStatus {
    const active = connections.requireActive();
    return { ...active.sync.status(), online: tracker.online, runsEnded: { ...runsEnded }, history: historyStatus(active.cache.db) };
  }
  return {
    'sync.status': () => syncStatus(),
    'sync.historyEvidence': () => historyEvidence(cache().db),
    'sync.exportEvidence': () => {
      const { cache: active, connection } = connections.requireActive();
      const file = historyEvidenceFile(active.db, connection, clock.now());
      return artifacts.put('json', file.baseName, file.bytes);
    },
    'sync.run': (input) => {
      const runtime = connections.requireActive();
      void runtime.sync.run(input.resources).catch((error: unknown) => log(`sync failed: ${(error as Error).message}`));
      return { started: true };
    },
  };
}

/** projects.*, inventories.* and organizations.*: reads of the active connection's synced cache. */
export function syncedReadMethods(ctx: ServiceContext): MethodGroup<'projects' | 'inventories' | 'organizations'> {
  const { cache, fresh } = ctx;
  return {
    'projects.search': (input) => fresh(cache().searchProjects(input)),
    'projects.facets': (input) => cache().projectFacets(input.scope, input.query, input.filters),
    'projects.get': (input) => {
      // By id, or by the number an address names (/projects/1006).
      const byNum = () => cache().projectIdOfNum(input.id);
      const found = cache().getProject(input.id) ?? cache().getProject(byNum() ?? '');
      if (!found) throw new DeskFailure('not_found', `Project ${input.id} is not in the desk's data (it may not be synced yet)`);
      return fresh(found);
    },
    'inventories.get': (input) => {
      const found = cache().getInventory(input.account);
      if (!found) throw new DeskFailure('not_found', `The ${input.account} account has not been synced yet`);
      return fresh(found);
    },
    'inventories.credits': (input) => fresh(cache().searchInventoryCredits(input)),
    'inventories.facets': (input) => cache().inventoryFacets(input.account, input.query, input.filters),
    'organizations.list': () => fresh(cache().listOrganizations()),
  };
}

/** retirements.*: read from the cache; finalize and certificates go to the registry. */
export function retirementMethods(ctx: ServiceContext): MethodGroup<'retirements'> {
  const { cache, fresh, writeContext, connections, paths, artifacts, clock } = ctx;
  return {
    'retirements.search': (input) => fresh(cache().searchRetirements(input)),
    'retirements.facets': (input) => cache().retirementFacets(input.query, input.filters),
    'retirements.get': (input) => {
      const found = cache().getRetirement(input.id);
      if (!found) throw new DeskFailure('not_found', `Retirement ${input.id} is not in the desk's data (it may not be synced yet)`);
      return fresh(found);
    },
    'retirements.finalize': (input) => writes.finalize(writeContext(), input),
    'retirements.finalizeHints': (input) => finalizeHints(cache(), input.retirementId),
    'retirements.walletCheck': (input) => writes.walletCheck(writeContext(), input),
    'retirements.demoWalletKey': (input) => demoWalletKey(connections.requireActive(), paths.embeddedRegistryDir, input.retirementId),
    'retirements.certificate': async (input) => {
      const pdf = await writes.certificate(writeContext(), input);
      return artifacts.put('pdf', pdf.baseName, pdf.bytes);
    },
    'retirements.certificates': async (input) => {
      const context = writeContext();
      const bundle = await certificateBundle(
        input.ids,
        input.format,
        new Date(clock.now()),
        (id) => writes.certificate(context, { id }),
        writes.certificateName,
      );
      return artifacts.put(input.format, bundle.baseName, bundle.bytes);
    },
  };
}

/** warehouse.*: the live warehouse view, and reservations through the registry. */
export function warehouseMethods(ctx: ServiceContext): MethodGroup<'warehouse'> {
  const { connections, tracker, clock, writeContext } = ctx;
  const warehouseOf = (organizationId: string) => warehouseView(connections.requireActive(), tracker, clock, organizationId);
  return {
    'warehouse.get': (input) => warehouseOf(input.organizationId),
    'warehouse.reserve': (input) => writes.reserve(writeContext(), input),
    'warehouse.cancel': (input) => writes.cancel(writeContext(), input),
    'warehouse.finish': (input) => writes.finish(writeContext(), input),
    'warehouse.reservation': (input) => writes.getReservation(writeContext(), input),
  };
}

/** export.csv: a CSV of what a screen lists, kept as a file to save. */
export function exportMethods(ctx: ServiceContext): MethodGroup<'export'> {
  const { connections, tracker, clock, backOffice, artifacts } = ctx;
  return {
    'export.csv': async (input) => {
      const runtime = connections.requireActive();
      const csv = await exportCsv(
        {
          searchProjects: (search) => runtime.cache.searchProjects(search),
          searchRetirements: (search) => runtime.cache.searchRetirements(search),
          inventoryCredits: (search) => runtime.cache.inventoryCreditsOf(search),
          warehouseCredits: (organizationId) => warehouseView(runtime, tracker, clock, organizationId),
          auditEntries: (filter) =>
            auditEntries(
              async (query) =>
                (await backOffice.read({ endpoint: 'operatorSearchAudit', query })).data as Awaited<ReturnType<AuditPageRead>>,
              filter,
            ),
        },
        input,
        new Date(clock.now()).toISOString().slice(0, 10),
      );
      return artifacts.put('csv', csv.baseName, csv.bytes);
    },
  };
}

/** backOffice.*: the operator endpoints of the active connection (back-office/). */
export function backOfficeMethods({ backOffice }: ServiceContext): MethodGroup<'backOffice'> {
  return {
    'backOffice.session': () => backOffice.session(),
    'backOffice.read': (input) => backOffice.read(input),
    'backOffice.write': (input) => backOffice.write(input),
    'backOffice.settle': (input) => backOffice.settle(input),
    'backOffice.accountMovements': (input) => backOffice.accountMovements(input),
  };
}

/** Validates a call against the contract and runs its handler; errors become the desk's error codes. */
function dispatcher(handlers: Handlers, log: (line: string) => void) {
  return async function dispatch(method: string, rawInput: unknown): Promise<DeskResult<unknown>> {
    if (!knownMethods.has(method))
      return { ok: false, error: { code: 'invalid_input', message: `Unknown desk method ${JSON.stringify(method)}` } };
    const definition = deskApi[method as DeskMethod];
    const parsed = definition.input.safeParse(rawInput ?? {});
    if (!parsed.success) return { ok: false, error: invalidInput(parsed.error.issues, `Invalid input for ${method}`).toDeskError() };
    try {
      const value = await (handlers[method as DeskMethod] as Handler)(parsed.data as never);
      return { ok: true, value };
    } catch (error) {
      const deskError = toDeskError(error);
      if (deskError.code === 'internal')
        log(`${method} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      return { ok: false, error: deskError };
    }
  };
}

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
