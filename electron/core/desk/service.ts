// The desk service: every method of shared/desk/api.ts behind one `dispatch(method, rawInput)`.
// Input is validated against the contract first (invalid → `invalid_input` listing every problem,
// nothing touched); reads come from the active connection's cache, marked with how fresh they are
// and whether the registry is reachable; writes go through the registry client and fail with
// `offline` when it is not. Hosts (Electron IPC, the web host) only carry calls and events.
import { createPrivateKey } from 'node:crypto';
import { z } from 'zod';
import {
  deskApi,
  deskMethods,
  type ConnectionInfo,
  type DeskEvent,
  type DeskInput,
  type DeskMethod,
  type DeskOutput,
  type DeskResult,
  type SyncStatus,
} from '../../../shared/desk/api';
import { systemClock, type Clock } from '../clock';
import type { FetchLike } from '../client/http';
import type { SyncTuning } from './sync/context';
import type { SyncEngineEvent } from './sync/types';
import type { SyncWorkerSettings } from './sync/worker/host';
import { clientFor, openConnectionRuntime, type ConnectionRuntime } from './connection-runtime';
import { openConnectionStore, type ConnectionStore, type SecretStoreKind, type StoredConnection } from './connections';
import { exportCsv } from './csv-export';
import { startEmbeddedRegistry, type DemoSeeder, type EmbeddedRegistry } from './embedded';
import { DeskFailure, invalidInput, toDeskError } from './errors';
import { createEventHub } from './events';
import { discoverInstallations, hasExaminerRead } from './installations';
import { createMemoryVault, type KeychainAvailability, type KeyVault, type SecretStoreFactory } from './key-vault';
import type { RemoteLaunch } from './launch-options';
import { deskPaths, type DeskPaths } from './paths';
import { isUnreachable, translateClientError, withRegistry, type OnlineTracker } from './registry-calls';
import { openSettingsStore, type SettingsStore } from './settings';
import { warehouseView } from './warehouse-view';
import * as writes from './writes';
import type { DeskDispatcher } from './dispatcher';
import { SecretStoreError } from '../secrets';
import { KeyReadError } from './secret-stores';

export const EMBEDDED_CONNECTION_ID = 'embedded';
export const COMMAND_LINE_CONNECTION_ID = 'command-line';

export interface DeskServiceOptions {
  dataDir: string;
  host: 'electron' | 'web';
  version: string;
  clock?: Clock;
  /** Opens the secret store of a kind (keychain, encrypted file); 'memory' is handled here. */
  secretStoreFactory?: SecretStoreFactory;
  /** Whether an OS keychain can be used here. */
  probeKeychain?: () => Promise<KeychainAvailability>;
  /** Seeds the embedded registry on its first start (electron/core/registry/seed). */
  seedDemo: DemoSeeder;
  /** Start with this remote registry (--registry-url …) instead of the embedded one. */
  remote?: RemoteLaunch;
  fetch?: FetchLike;
  syncTuning?: Partial<SyncTuning>;
  /** The sync's worker thread (default) or false to sync on this thread (needed with `fetch`). */
  syncWorker?: SyncWorkerSettings | false;
  /** Run the sync at start and on the settings interval (default true). */
  autoSync?: boolean;
  follow?: { intervalMs: number; timeoutMs: number };
  log?: (line: string) => void;
}

export interface DeskService extends DeskDispatcher {
  /** Typed call for in-process callers (menus, tests); same validation as dispatch. */
  call<M extends DeskMethod>(method: M, input: DeskInput<M>): Promise<DeskResult<DeskOutput<M>>>;
  readonly settings: SettingsStore;
  readonly paths: DeskPaths;
  /** The embedded registry, while it runs (tests stop it to go offline). */
  readonly embedded: EmbeddedRegistry | null;
  close(): Promise<void>;
}

type Handler = (input: never) => Promise<unknown> | unknown;
const knownMethods = new Set<string>(deskMethods);

export async function createDeskService(options: DeskServiceOptions): Promise<DeskService> {
  const clock = options.clock ?? systemClock;
  const log = options.log ?? (() => {});
  const paths = deskPaths(options.dataDir);
  const settings = openSettingsStore(paths.settingsFile);
  const connections: ConnectionStore = openConnectionStore(paths.connectionsFile);
  const hub = createEventHub((error) => log(`event listener failed: ${(error as Error).message}`));
  const memoryVault = createMemoryVault();
  const keychain: KeychainAvailability = (await options.probeKeychain?.()) ?? {
    available: false,
    reason: 'no keychain support in this build',
  };

  let embedded: EmbeddedRegistry | null = null;
  let active: ConnectionRuntime | null = null;
  let online = true;

  const tracker: OnlineTracker = {
    get online() {
      return online;
    },
    report(reachable) {
      if (reachable === online) return;
      online = reachable;
      hub.publish({ type: 'online.changed', online });
    },
  };

  let keychainVault: KeyVault | undefined;
  // Passphrase-encrypted stores are per connection and stay unlocked for this run only.
  const unlockedFiles = new Map<string, KeyVault>();

  async function openStore(kind: Exclude<SecretStoreKind, 'memory'>, connectionId: string, passphrase?: string): Promise<KeyVault> {
    if (!options.secretStoreFactory) throw new DeskFailure('key_unavailable', `The ${kind} secret store is not available in this build`);
    return options.secretStoreFactory(kind, {
      connectionId,
      directory: paths.secretsDir,
      ...(passphrase === undefined ? {} : { passphrase }),
    });
  }

  /** The store holding a connection's key; an encrypted file must have been unlocked (or just created). */
  async function vaultFor(kind: SecretStoreKind, connectionId: string): Promise<KeyVault> {
    if (kind === 'memory') return memoryVault;
    if (kind === 'keychain') return (keychainVault ??= await openStore('keychain', connectionId));
    const unlocked = unlockedFiles.get(connectionId);
    if (!unlocked)
      throw new DeskFailure(
        'key_unavailable',
        "The app's key is in a passphrase-encrypted file that is locked: unlock it with its passphrase in Connections",
      );
    return unlocked;
  }

  const keyLoader = (connection: StoredConnection) => async () =>
    (await vaultFor(connection.secretStore, connection.id)).readPrivateKey(connection.id);

  function onSyncEvent(event: SyncEngineEvent): void {
    switch (event.type) {
      case 'progress':
        hub.publish({ type: 'sync.progress', progress: event.progress });
        break;
      case 'online':
        tracker.report(event.online);
        break;
      case 'finished':
        if (event.result.ok) hub.publish({ type: 'sync.finished', status: event.status });
        else
          hub.publish({
            type: 'sync.failed',
            status: event.status,
            message: event.status.lastError ?? (event.result.offline ? 'the registry cannot be reached' : 'the sync failed'),
          });
        break;
    }
  }

  const syncIntervalMs = () => settings.get().syncIntervalMinutes * 60_000;

  async function activate(connection: StoredConnection): Promise<ConnectionRuntime> {
    if (active) {
      const previous = active;
      active = null;
      await previous.close();
    }
    const runtime = openConnectionRuntime({
      connection,
      paths,
      clock,
      loadPrivateKey: keyLoader(connection),
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.syncTuning ? { syncTuning: options.syncTuning } : {}),
      ...(options.syncWorker !== undefined ? { syncWorker: options.syncWorker } : {}),
      onSyncEvent,
      log,
    });
    active = runtime;
    online = true;
    if (connections.activeId() !== connection.id) connections.setActive(connection.id);
    if (options.autoSync !== false) runtime.sync.start(syncIntervalMs());
    return runtime;
  }

  function requireActive(): ConnectionRuntime {
    if (!active) throw new DeskFailure('not_found', 'No registry connection is active: add or activate one in Connections');
    return active;
  }

  /** Asks the registry which organizations the app is installed in, and whether it may read internal projects. */
  async function refreshAppFacts(
    connection: StoredConnection,
    client = active?.connection.id === connection.id ? active.client : undefined,
  ): Promise<StoredConnection> {
    const registryClient =
      client ??
      clientFor({
        baseUrl: connection.baseUrl,
        appId: connection.appId,
        loadPrivateKey: keyLoader(connection),
        clock,
        ...(options.fetch ? { fetch: options.fetch } : {}),
      });
    const installations = await discoverInstallations(registryClient);
    const grant = await registryClient.tokens.grant({ kind: 'app' });
    return { ...connection, installations, examinerRead: hasExaminerRead(grant.permissions) };
  }

  // ---- start-up: the embedded registry, the command-line remote, the active connection -------------

  async function startEmbedded(): Promise<StoredConnection> {
    embedded = await startEmbeddedRegistry({ dataDir: paths.embeddedRegistryDir, clock, seed: options.seedDemo, scale: 1, log });
    const existing = connections.get(EMBEDDED_CONNECTION_ID);
    let secretStore: SecretStoreKind = existing?.secretStore ?? (keychain.available ? 'keychain' : 'memory');
    if (secretStore === 'encrypted-file') secretStore = 'memory';
    if (secretStore === 'memory' && !existing) {
      log(
        `no OS keychain (${keychain.reason ?? 'unavailable'}): the embedded demo app's key is kept in memory and re-read from the demo credentials at every start`,
      );
    }
    // The demo key is re-imported at every start: it is demo data, and a memory store forgets it.
    await (
      await vaultFor(secretStore, EMBEDDED_CONNECTION_ID)
    ).importPrivateKey(EMBEDDED_CONNECTION_ID, embedded.credentials.app.privateKeyPem);
    const connection: StoredConnection = {
      id: EMBEDDED_CONNECTION_ID,
      name: existing?.name ?? 'Embedded demo registry',
      kind: 'embedded',
      baseUrl: embedded.url,
      appId: embedded.credentials.app.id,
      secretStore,
      examinerRead: existing?.examinerRead ?? false,
      installations: existing?.installations ?? [],
    };
    return connections.put(await refreshAppFacts(connection));
  }

  async function startCommandLineRemote(remote: RemoteLaunch): Promise<StoredConnection> {
    checkPrivateKey(remote.privateKeyPem);
    await memoryVault.importPrivateKey(COMMAND_LINE_CONNECTION_ID, remote.privateKeyPem);
    const existing = connections.get(COMMAND_LINE_CONNECTION_ID);
    let connection: StoredConnection = {
      id: COMMAND_LINE_CONNECTION_ID,
      name: `Registry at ${new URL(remote.baseUrl).host}`,
      kind: 'remote',
      baseUrl: remote.baseUrl,
      appId: remote.appId,
      secretStore: 'memory',
      examinerRead: existing?.appId === remote.appId ? existing.examinerRead : false,
      installations: existing?.appId === remote.appId && existing.baseUrl === remote.baseUrl ? existing.installations : [],
    };
    try {
      connection = await refreshAppFacts(connection);
    } catch (error) {
      // Starting against a registry that is down is allowed (the cache still answers reads).
      if (!isUnreachable(error)) throw translateClientError(error, 'Connecting to the registry');
      log(`the registry at ${remote.baseUrl} cannot be reached; starting from the cache`);
    }
    return connections.put(connection);
  }

  if (options.remote) {
    await activate(await startCommandLineRemote(options.remote));
  } else {
    const hasEmbedded = connections.get(EMBEDDED_CONNECTION_ID) !== undefined;
    const embeddedConnection = hasEmbedded || connections.list().length === 0 ? await startEmbedded() : undefined;
    const activeId = connections.activeId();
    const chosen = (activeId ? connections.get(activeId) : undefined) ?? embeddedConnection ?? connections.list()[0];
    if (chosen) await activate(chosen);
  }

  // ---- methods -----------------------------------------------------------------------------------

  function checkPrivateKey(pem: string): void {
    try {
      const key = createPrivateKey(pem);
      if (key.asymmetricKeyType !== 'rsa') throw new Error('not RSA');
    } catch {
      // Never echo the PEM (nor OpenSSL's view of it).
      throw new DeskFailure('invalid_input', 'The private key is not a PEM-encoded RSA private key', [
        'privateKeyPem: not a PEM-encoded RSA private key',
      ]);
    }
  }

  async function connectionInfo(connection: StoredConnection): Promise<ConnectionInfo> {
    let keyStatus: ConnectionInfo['keyStatus'] = 'ok';
    let keyMessage: string | undefined;
    try {
      const pem = await (await vaultFor(connection.secretStore, connection.id)).readPrivateKey(connection.id);
      try {
        createPrivateKey(pem);
      } catch {
        keyStatus = 'invalid';
        keyMessage = 'The stored key is not a valid private key; re-import it';
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      keyStatus = error instanceof KeyReadError ? error.reason : /not found|missing|no key|gone/i.test(message) ? 'missing' : 'unreadable';
      keyMessage = message;
    }
    if (keyStatus === 'ok' && connection.secretStore === 'memory') {
      keyMessage =
        connection.kind === 'embedded'
          ? 'No OS keychain here: the demo key is kept in memory and re-read from the demo data at every start'
          : 'The key was read from --key-file and is kept in memory only';
    }
    return {
      id: connection.id,
      name: connection.name,
      kind: connection.kind,
      baseUrl: connection.baseUrl,
      appId: connection.appId,
      keyStatus,
      ...(keyMessage ? { keyMessage } : {}),
      secretStore: connection.secretStore,
      examinerRead: connection.examinerRead,
      installations: connection.installations,
    };
  }

  function fresh<T extends object>(value: T): T & { offline: boolean } {
    return { ...value, offline: !online };
  }

  function syncStatus(): SyncStatus {
    return { ...requireActive().sync.status(), online };
  }

  const warehouseOf = (organizationId: string) => warehouseView(requireActive(), tracker, clock, organizationId);

  const writeContext = (): writes.WriteContext => ({
    runtime: requireActive(),
    tracker,
    publish: (event) => hub.publish(event),
    ...(options.follow ? { follow: options.follow } : {}),
  });

  const handlers: { [M in DeskMethod]: (input: z.output<(typeof deskApi)[M]['input']>) => Promise<DeskOutput<M>> | DeskOutput<M> } = {
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
      if (active && next.syncIntervalMinutes !== before && options.autoSync !== false) {
        active.sync.stop();
        active.sync.start(syncIntervalMs(), { immediately: false });
      }
      return { theme: next.theme, syncIntervalMinutes: next.syncIntervalMinutes };
    },

    'connections.list': async () => ({
      activeId: active?.connection.id ?? null,
      connections: await Promise.all(connections.list().map(connectionInfo)),
      keychain,
    }),
    'connections.addRemote': async (input) => {
      checkPrivateKey(input.privateKeyPem);
      let secretStore: SecretStoreKind;
      if (keychain.available) secretStore = 'keychain';
      else if (input.encryptedFileFallback) secretStore = 'encrypted-file';
      else {
        throw new DeskFailure(
          'invalid_input',
          `No OS keychain is available (${keychain.reason ?? 'unknown reason'}): confirm storing the key in a passphrase-encrypted file`,
          ['encryptedFileFallback: required when no keychain is available'],
        );
      }
      const id = crypto.randomUUID();
      const draft: StoredConnection = {
        id,
        name: input.name,
        kind: 'remote',
        baseUrl: input.baseUrl,
        appId: input.appId,
        secretStore,
        examinerRead: false,
        installations: [],
      };
      // Prove the address, the app id and the key before anything is stored: a wrong pair is
      // refused, and so is an address that cannot be reached (a typo would otherwise be saved as a
      // connection that can never sync, with a key nobody checked).
      let connection: StoredConnection;
      try {
        connection = await refreshAppFacts(
          draft,
          clientFor({
            baseUrl: draft.baseUrl,
            appId: draft.appId,
            loadPrivateKey: async () => input.privateKeyPem,
            clock,
            ...(options.fetch ? { fetch: options.fetch } : {}),
          }),
        );
      } catch (error) {
        if (isUnreachable(error)) {
          throw new DeskFailure(
            'offline',
            `${draft.baseUrl} cannot be reached: check the address and that the registry is running, then add the connection again`,
          );
        }
        throw translateClientError(error, 'Adding the connection');
      }
      let vault: KeyVault;
      if (secretStore === 'encrypted-file') {
        vault = await openStore('encrypted-file', id, input.encryptedFileFallback!.passphrase);
        unlockedFiles.set(id, vault);
      } else vault = await vaultFor(secretStore, id);
      await vault.importPrivateKey(id, input.privateKeyPem);
      connections.put(connection);
      hub.publish({ type: 'connections.changed' });
      return connectionInfo(connection);
    },
    'connections.activate': async (input) => {
      const connection = connections.get(input.id);
      if (!connection) throw new DeskFailure('not_found', `No connection ${input.id}`);
      if (active?.connection.id !== connection.id) await activate(connection);
      hub.publish({ type: 'connections.changed' });
      return connectionInfo(connection);
    },
    'connections.remove': async (input) => {
      const connection = connections.get(input.id);
      if (!connection) throw new DeskFailure('not_found', `No connection ${input.id}`);
      if (connection.kind === 'embedded') throw new DeskFailure('conflict', 'The embedded demo registry cannot be removed');
      if (active?.connection.id === connection.id) {
        const closing = active;
        active = null;
        await closing.close();
      }
      await (await vaultFor(connection.secretStore, connection.id)).deletePrivateKey(connection.id).catch(() => {});
      unlockedFiles.delete(connection.id);
      connections.remove(connection.id);
      const fallback = connections.get(EMBEDDED_CONNECTION_ID) ?? connections.list()[0];
      if (!active && fallback) await activate(fallback);
      hub.publish({ type: 'connections.changed' });
      return { ok: true as const };
    },
    'connections.reimportKey': async (input) => {
      const connection = connections.get(input.id);
      if (!connection) throw new DeskFailure('not_found', `No connection ${input.id}`);
      checkPrivateKey(input.privateKeyPem);
      await (await vaultFor(connection.secretStore, connection.id)).importPrivateKey(connection.id, input.privateKeyPem);
      if (active?.connection.id === connection.id) active.client.tokens.clear();
      hub.publish({ type: 'connections.changed' });
      return connectionInfo(connection);
    },
    'connections.unlock': async (input) => {
      const connection = connections.get(input.id);
      if (!connection) throw new DeskFailure('not_found', `No connection ${input.id}`);
      if (connection.secretStore !== 'encrypted-file')
        throw new DeskFailure('invalid_input', 'Only a key in a passphrase-encrypted file needs unlocking', [
          'id: not an encrypted-file connection',
        ]);
      let vault: KeyVault;
      try {
        vault = await openStore('encrypted-file', connection.id, input.passphrase);
        checkPrivateKey(await vault.readPrivateKey(connection.id));
      } catch (error) {
        // The secret stores' messages are written to be shown (and never carry the key).
        throw new DeskFailure(
          'key_unavailable',
          `The key file cannot be opened with this passphrase${error instanceof SecretStoreError || error instanceof KeyReadError ? `: ${error.message}` : ''}`,
        );
      }
      unlockedFiles.set(connection.id, vault);
      if (active?.connection.id === connection.id) active.client.tokens.clear();
      hub.publish({ type: 'connections.changed' });
      return connectionInfo(connection);
    },
    'connections.refreshInstallations': async (input) => {
      const connection = connections.get(input.id);
      if (!connection) throw new DeskFailure('not_found', `No connection ${input.id}`);
      const refreshed = await withRegistry(tracker, 'Refreshing the installations', () => refreshAppFacts(connection));
      connections.put(refreshed);
      if (active?.connection.id === refreshed.id) active.connection = refreshed;
      hub.publish({ type: 'connections.changed' });
      return connectionInfo(refreshed);
    },

    'sync.status': () => syncStatus(),
    'sync.run': (input) => {
      const runtime = requireActive();
      void runtime.sync.run(input.resources).catch((error: unknown) => log(`sync failed: ${(error as Error).message}`));
      return { started: true };
    },

    'projects.search': (input) => fresh(requireActive().cache.searchProjects(input)),
    'projects.facets': (input) => requireActive().cache.projectFacets(input.scope),
    'projects.get': (input) => {
      const found = requireActive().cache.getProject(input.id);
      if (!found) throw new DeskFailure('not_found', `Project ${input.id} is not in the desk's data (it may not be synced yet)`);
      return fresh(found);
    },
    'inventories.get': (input) => {
      const found = requireActive().cache.getInventory(input.account);
      if (!found) throw new DeskFailure('not_found', `The ${input.account} account has not been synced yet`);
      return fresh(found);
    },
    'inventories.credits': (input) => fresh(requireActive().cache.searchInventoryCredits(input)),
    'inventories.facets': (input) => requireActive().cache.inventoryFacets(input.account),
    'retirements.search': (input) => fresh(requireActive().cache.searchRetirements(input)),
    'retirements.get': (input) => {
      const found = requireActive().cache.getRetirement(input.id);
      if (!found) throw new DeskFailure('not_found', `Retirement ${input.id} is not in the desk's data (it may not be synced yet)`);
      return fresh(found);
    },
    'retirements.finalize': (input) => writes.finalize(writeContext(), input),
    'retirements.certificate': (input) => writes.certificate(writeContext(), input),

    'organizations.list': () => fresh(requireActive().cache.listOrganizations()),

    'warehouse.get': (input) => warehouseOf(input.organizationId),
    'warehouse.reserve': (input) => writes.reserve(writeContext(), input),
    'warehouse.cancel': (input) => writes.cancel(writeContext(), input),
    'warehouse.finish': (input) => writes.finish(writeContext(), input),
    'warehouse.reservation': (input) => writes.getReservation(writeContext(), input),

    'export.csv': (input) => {
      const runtime = requireActive();
      return exportCsv(
        {
          searchProjects: (search) => runtime.cache.searchProjects(search),
          searchRetirements: (search) => runtime.cache.searchRetirements(search),
          inventoryCredits: (search) => runtime.cache.inventoryCreditsOf(search),
          warehouseCredits: (organizationId) => warehouseView(runtime, tracker, clock, organizationId),
        },
        input,
        new Date(clock.now()).toISOString().slice(0, 10),
      );
    },
  };

  async function dispatch(method: string, rawInput: unknown): Promise<DeskResult<unknown>> {
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
  }

  return {
    dispatch,
    call: (method, input) => dispatch(method, input) as never,
    onEvent: (listener: (event: DeskEvent) => void) => hub.subscribe(listener),
    settings,
    paths,
    get embedded() {
      return embedded;
    },
    async close() {
      const closing = active;
      active = null;
      await closing?.close();
      const stopping = embedded;
      embedded = null;
      await stopping?.stop();
    },
  };
}
