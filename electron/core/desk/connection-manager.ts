// The desk's registry connections: which one is active (its runtime: client, cache, sync), the
// embedded demo registry, the command-line remote, and the connections.* methods that add,
// activate, re-key, unlock, refresh and remove them. Only one connection is active at a time;
// activating another closes the previous runtime first.
import { httpProbe, startReachabilityProbe, type ReachabilityProbe } from './reachability-probe';
import type { ConnectionInfo } from '@shared/desk/api';
import { clientFor, openConnectionRuntime, type ConnectionRuntime } from './connection-runtime';
import { historyStatus, pinnedKey } from './verification/status';
import { confirmLogKey, fetchLogKey, logKeyOf } from './verification/log-key';
import { startCacheOver } from './verification/start-over';
import { checkPrivateKeyPem } from './connection-keys';
import type { StoredConnection } from './connections';
import type { EmbeddedRegistry } from './embedded';
import { operatorKeyId } from './local-operator';
import { DeskFailure } from './errors';
import { discoverInstallations, hasExaminerRead } from './installations';
import { KeyReadError, type KeyVault } from './key-vault';
import type { RemoteLaunch } from './launch-options';
import { isUnreachable, translateClientError, withRegistry } from './registry-calls';
import { SecretStoreError } from './secrets';
import type { ConnectionManager, ConnectionManagerOptions } from './connection-manager-api';
import { addRemoteConnection } from './connection-add';
import { EMBEDDED_CONNECTION_ID, startCommandLineConnection, startEmbeddedConnection, type StartupDeps } from './connection-startup';

export { COMMAND_LINE_CONNECTION_ID, EMBEDDED_CONNECTION_ID } from './connection-startup';

/** The manager's state, which its parts share: the embedded registry, the active runtime and its probe. */
export interface ManagerState {
  readonly options: ConnectionManagerOptions;
  embedded: EmbeddedRegistry | null;
  active: ConnectionRuntime | null;
  probe: ReachabilityProbe | null;
}

/** Probes the active registry by itself, so going offline and coming back show without a sync. */
function startProbe(m: ManagerState, connection: StoredConnection): void {
  const { options } = m;
  const { tracker } = options;
  m.probe?.stop();
  m.probe = null;
  if (options.probe === false) return;
  m.probe = startReachabilityProbe({
    ...(options.probe ?? {}),
    probe: httpProbe(connection.baseUrl, options.fetch ?? fetch),
    report: (reachable) => tracker.report(reachable),
    isOnline: () => tracker.online,
  });
}

/** Stops the probe and closes the active runtime, if any (activating, removing, starting over, closing). */
export async function closeActive(m: ManagerState): Promise<void> {
  m.probe?.stop();
  m.probe = null;
  const closing = m.active;
  m.active = null;
  await closing?.close();
}

/** Opens the connection's runtime (client, cache, sync) as the active one, the previous closed first. */
export async function activate(m: ManagerState, connection: StoredConnection): Promise<ConnectionRuntime> {
  const { options } = m;
  const { connections, paths, clock, keys, tracker, log } = options;
  await closeActive(m);
  const runtime = openConnectionRuntime({
    connection,
    paths,
    clock,
    loadPrivateKey: keys.loaderFor(connection),
    ...(connection.operatorId !== undefined
      ? {
          operator: {
            operatorId: connection.operatorId,
            loadPrivateKey: keys.operatorLoaderFor(connection),
          },
        }
      : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.syncTuning ? { syncTuning: options.syncTuning } : {}),
    ...(options.syncWorker !== undefined ? { syncWorker: options.syncWorker } : {}),
    onSyncEvent: options.onSyncEvent,
    log,
    ...(connection.kind === 'embedded' && m.embedded ? { localCertificate: m.embedded.certificate.bind(m.embedded) } : {}),
  });
  m.active = runtime;
  tracker.assumeOnline();
  startProbe(m, connection);
  if (connections.activeId() !== connection.id) connections.setActive(connection.id);
  if (options.autoSync) runtime.sync.start(options.syncIntervalMs());
  return runtime;
}

export function requireActive(m: ManagerState): ConnectionRuntime {
  if (!m.active) throw new DeskFailure('not_found', 'No registry connection is active: add or activate one in Connections');
  return m.active;
}

export function requireConnection(m: ManagerState, id: string): StoredConnection {
  const { connections } = m.options;
  const connection = connections.get(id);
  if (!connection) throw new DeskFailure('not_found', `No connection ${id}`);
  return connection;
}

/** Asks the registry which organizations the app is installed in, and whether it may read internal projects. */
export async function refreshAppFacts(
  m: ManagerState,
  connection: StoredConnection,
  client = m.active?.connection.id === connection.id ? m.active.client : undefined,
): Promise<StoredConnection> {
  const { options } = m;
  const { keys, clock } = options;
  const registryClient =
    client ??
    clientFor({
      baseUrl: connection.baseUrl,
      appId: connection.appId,
      loadPrivateKey: keys.loaderFor(connection),
      clock,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  const installations = await discoverInstallations(registryClient);
  const grant = await registryClient.tokens.grant({ kind: 'app' });
  return { ...connection, installations, examinerRead: hasExaminerRead(grant.permissions) };
}

/** A connection as the connections.* methods answer it: its key's status, installations and history. */
export async function connectionInfo(m: ManagerState, connection: StoredConnection): Promise<ConnectionInfo> {
  const { keys } = m.options;
  const { keyStatus, keyMessage } = await keys.keyStatus(connection);
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
    ...(connection.operatorId !== undefined ? { operatorId: connection.operatorId } : {}),
    ...(m.active?.connection.id === connection.id ? { history: historyStatus(m.active.cache.db) } : {}),
    ...logKeyInfo(m, connection),
  };
}

/** The key the connection's history is checked against: the one reviewed, else the one its first sync pinned. */
function logKeyInfo(m: ManagerState, connection: StoredConnection): Pick<ConnectionInfo, 'logKey'> {
  const pinned =
    connection.logKey !== undefined
      ? connection.logKey
      : m.active?.connection.id === connection.id
        ? pinnedKey(m.active.cache.db)
        : undefined;
  return pinned === undefined ? {} : { logKey: pinned === null ? null : logKeyOf(pinned) };
}

/** The registry's log key now, an unreachable registry said in words. */
async function servedLogKey(m: ManagerState, baseUrl: string) {
  const { options } = m;
  try {
    return await fetchLogKey(baseUrl, options.fetch);
  } catch (error) {
    if (isUnreachable(error))
      throw new DeskFailure('offline', `${baseUrl} cannot be reached: check the address and that the registry is running`);
    throw translateClientError(error, "Reading the registry's log key");
  }
}

/** connections.logKey and connections.startOver: the registry's history key read, and the cache started over against it. */
export function historyMethods(m: ManagerState): Pick<ConnectionManager, 'logKey' | 'startOver'> {
  const { options } = m;
  const { connections, paths, clock } = options;
  return {
    logKey: async (input) => ({ logKey: await servedLogKey(m, input.baseUrl) }),

    async startOver(input) {
      const connection = requireConnection(m, input.id);
      // what the person reviewed must be what the registry serves now
      const accepted = confirmLogKey(input.logKey, await servedLogKey(m, connection.baseUrl));
      const wasActive = m.active?.connection.id === connection.id;
      if (wasActive) {
        await closeActive(m);
      }
      startCacheOver(paths.cacheFile(connection.id), clock, { key: accepted?.key ?? null });
      const restarted = connections.put({ ...connection, logKey: accepted?.key ?? null });
      if (wasActive) await activate(m, restarted);
      options.publish({ type: 'connections.changed' });
      return connectionInfo(m, restarted);
    },
  };
}

/** connections.reimportKey and connections.unlock: a connection's key replaced, or its encrypted file opened. */
export function keyMethods(m: ManagerState): Pick<ConnectionManager, 'reimportKey' | 'unlock'> {
  const { options } = m;
  const { keys, log } = options;
  return {
    async reimportKey(input) {
      const connection = requireConnection(m, input.id);
      checkPrivateKeyPem(input.privateKeyPem);
      await (await keys.vaultFor(connection.secretStore, connection.id)).importPrivateKey(connection.id, input.privateKeyPem);
      if (m.active?.connection.id === connection.id) m.active.client.tokens.clear();
      options.publish({ type: 'connections.changed' });
      return connectionInfo(m, connection);
    },

    async unlock(input) {
      const connection = requireConnection(m, input.id);
      if (connection.secretStore !== 'encrypted-file')
        throw new DeskFailure('invalid_input', 'Only a key in a passphrase-encrypted file needs unlocking', [
          'id: not an encrypted-file connection',
        ]);
      let vault: KeyVault;
      try {
        vault = await keys.openEncryptedFile(connection.id, input.passphrase);
        checkPrivateKeyPem(await vault.readPrivateKey(connection.id));
      } catch (error) {
        // The secret stores' messages are written to be shown (and never carry the key).
        throw new DeskFailure(
          'key_unavailable',
          `The key file cannot be opened with this passphrase${error instanceof SecretStoreError || error instanceof KeyReadError ? `: ${error.message}` : ''}`,
        );
      }
      keys.keepUnlocked(connection.id, vault);
      if (connection.operatorId !== undefined) {
        // the operator key's file has the same passphrase; when it cannot be opened the app key still works
        try {
          keys.keepUnlocked(operatorKeyId(connection.id), await keys.openEncryptedFile(operatorKeyId(connection.id), input.passphrase));
        } catch {
          log(`the operator key of connection ${connection.id} could not be unlocked; its operator endpoints stay locked`);
        }
      }
      if (m.active?.connection.id === connection.id) m.active.client.tokens.clear();
      options.publish({ type: 'connections.changed' });
      return connectionInfo(m, connection);
    },
  };
}

export function createConnectionManager(options: ConnectionManagerOptions): ConnectionManager {
  const { connections, keys, keychain, tracker } = options;
  const m: ManagerState = { options, embedded: null, active: null, probe: null };

  // ---- start-up: the embedded registry, the command-line remote (connection-startup.ts), the active connection

  const startup: StartupDeps = { ...options, refreshAppFacts: (connection) => refreshAppFacts(m, connection) };

  async function start(remote?: RemoteLaunch): Promise<void> {
    if (remote) {
      await activate(m, await startCommandLineConnection(startup, remote));
      return;
    }
    const hasEmbedded = connections.get(EMBEDDED_CONNECTION_ID) !== undefined;
    const embeddedConnection =
      hasEmbedded || connections.list().length === 0
        ? await startEmbeddedConnection(startup, (started) => (m.embedded = started))
        : undefined;
    const activeId = connections.activeId();
    const chosen = (activeId ? connections.get(activeId) : undefined) ?? embeddedConnection ?? connections.list()[0];
    if (chosen) await activate(m, chosen);
  }

  // ---- the connections.* methods -----------------------------------------------------------------

  return {
    get active() {
      return m.active;
    },
    get embedded() {
      return m.embedded;
    },
    requireActive: () => requireActive(m),
    start,

    list: async () => ({
      activeId: m.active?.connection.id ?? null,
      connections: await Promise.all(connections.list().map((connection) => connectionInfo(m, connection))),
      keychain,
    }),

    async addRemote(input) {
      const connection = await addRemoteConnection(
        { ...options, refreshAppFacts: (connection, client) => refreshAppFacts(m, connection, client) },
        input,
      );
      options.publish({ type: 'connections.changed' });
      return connectionInfo(m, connection);
    },

    async activate(input) {
      const connection = requireConnection(m, input.id);
      if (m.active?.connection.id !== connection.id) await activate(m, connection);
      options.publish({ type: 'connections.changed' });
      return connectionInfo(m, connection);
    },

    async remove(input) {
      const connection = requireConnection(m, input.id);
      if (connection.kind === 'embedded') throw new DeskFailure('conflict', 'The embedded demo registry cannot be removed');
      if (m.active?.connection.id === connection.id) {
        await closeActive(m);
      }
      await keys.deleteKey(connection);
      connections.remove(connection.id);
      const fallback = connections.get(EMBEDDED_CONNECTION_ID) ?? connections.list()[0];
      if (!m.active && fallback) await activate(m, fallback);
      options.publish({ type: 'connections.changed' });
      return { ok: true as const };
    },

    async refreshInstallations(input) {
      const connection = requireConnection(m, input.id);
      const refreshed = await withRegistry(tracker, 'Refreshing the installations', () => refreshAppFacts(m, connection));
      connections.put(refreshed);
      if (m.active?.connection.id === refreshed.id) m.active.connection = refreshed;
      options.publish({ type: 'connections.changed' });
      return connectionInfo(m, refreshed);
    },

    ...keyMethods(m),
    ...historyMethods(m),

    async close() {
      await closeActive(m);
      const stopping = m.embedded;
      m.embedded = null;
      await stopping?.stop();
    },
  };
}
