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

export function createConnectionManager(options: ConnectionManagerOptions): ConnectionManager {
  const { connections, paths, clock, keys, keychain, tracker, log } = options;
  let embedded: EmbeddedRegistry | null = null;
  let active: ConnectionRuntime | null = null;
  let probe: ReachabilityProbe | null = null;

  /** Probes the active registry by itself, so going offline and coming back show without a sync. */
  function startProbe(connection: StoredConnection): void {
    probe?.stop();
    probe = null;
    if (options.probe === false) return;
    probe = startReachabilityProbe({
      ...(options.probe ?? {}),
      probe: httpProbe(connection.baseUrl, options.fetch ?? fetch),
      report: (reachable) => tracker.report(reachable),
      isOnline: () => tracker.online,
    });
  }

  /** Stops the probe and closes the active runtime, if any (activating, removing, starting over, closing). */
  async function closeActive(): Promise<void> {
    probe?.stop();
    probe = null;
    const closing = active;
    active = null;
    await closing?.close();
  }

  async function activate(connection: StoredConnection): Promise<ConnectionRuntime> {
    await closeActive();
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
      ...(connection.kind === 'embedded' && embedded ? { localCertificate: embedded.certificate.bind(embedded) } : {}),
    });
    active = runtime;
    tracker.assumeOnline();
    startProbe(connection);
    if (connections.activeId() !== connection.id) connections.setActive(connection.id);
    if (options.autoSync) runtime.sync.start(options.syncIntervalMs());
    return runtime;
  }

  function requireActive(): ConnectionRuntime {
    if (!active) throw new DeskFailure('not_found', 'No registry connection is active: add or activate one in Connections');
    return active;
  }

  function requireConnection(id: string): StoredConnection {
    const connection = connections.get(id);
    if (!connection) throw new DeskFailure('not_found', `No connection ${id}`);
    return connection;
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
        loadPrivateKey: keys.loaderFor(connection),
        clock,
        ...(options.fetch ? { fetch: options.fetch } : {}),
      });
    const installations = await discoverInstallations(registryClient);
    const grant = await registryClient.tokens.grant({ kind: 'app' });
    return { ...connection, installations, examinerRead: hasExaminerRead(grant.permissions) };
  }

  async function connectionInfo(connection: StoredConnection): Promise<ConnectionInfo> {
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
      ...(active?.connection.id === connection.id ? { history: historyStatus(active.cache.db) } : {}),
      ...logKeyInfo(connection),
    };
  }

  /** The key the connection's history is checked against: the one reviewed, else the one its first sync pinned. */
  function logKeyInfo(connection: StoredConnection): Pick<ConnectionInfo, 'logKey'> {
    const pinned =
      connection.logKey !== undefined
        ? connection.logKey
        : active?.connection.id === connection.id
          ? pinnedKey(active.cache.db)
          : undefined;
    return pinned === undefined ? {} : { logKey: pinned === null ? null : logKeyOf(pinned) };
  }

  /** The registry's log key now, an unreachable registry said in words. */
  async function servedLogKey(baseUrl: string) {
    try {
      return await fetchLogKey(baseUrl, options.fetch);
    } catch (error) {
      if (isUnreachable(error))
        throw new DeskFailure('offline', `${baseUrl} cannot be reached: check the address and that the registry is running`);
      throw translateClientError(error, "Reading the registry's log key");
    }
  }

  // ---- start-up: the embedded registry, the command-line remote (connection-startup.ts), the active connection

  const startup: StartupDeps = { ...options, refreshAppFacts: (connection) => refreshAppFacts(connection) };

  async function start(remote?: RemoteLaunch): Promise<void> {
    if (remote) {
      await activate(await startCommandLineConnection(startup, remote));
      return;
    }
    const hasEmbedded = connections.get(EMBEDDED_CONNECTION_ID) !== undefined;
    const embeddedConnection =
      hasEmbedded || connections.list().length === 0
        ? await startEmbeddedConnection(startup, (started) => (embedded = started))
        : undefined;
    const activeId = connections.activeId();
    const chosen = (activeId ? connections.get(activeId) : undefined) ?? embeddedConnection ?? connections.list()[0];
    if (chosen) await activate(chosen);
  }

  // ---- the connections.* methods -----------------------------------------------------------------

  return {
    get active() {
      return active;
    },
    get embedded() {
      return embedded;
    },
    requireActive,
    start,

    list: async () => ({
      activeId: active?.connection.id ?? null,
      connections: await Promise.all(connections.list().map(connectionInfo)),
      keychain,
    }),

    async addRemote(input) {
      const connection = await addRemoteConnection({ ...options, refreshAppFacts }, input);
      options.publish({ type: 'connections.changed' });
      return connectionInfo(connection);
    },

    async activate(input) {
      const connection = requireConnection(input.id);
      if (active?.connection.id !== connection.id) await activate(connection);
      options.publish({ type: 'connections.changed' });
      return connectionInfo(connection);
    },

    async remove(input) {
      const connection = requireConnection(input.id);
      if (connection.kind === 'embedded') throw new DeskFailure('conflict', 'The embedded demo registry cannot be removed');
      if (active?.connection.id === connection.id) {
        await closeActive();
      }
      await keys.deleteKey(connection);
      connections.remove(connection.id);
      const fallback = connections.get(EMBEDDED_CONNECTION_ID) ?? connections.list()[0];
      if (!active && fallback) await activate(fallback);
      options.publish({ type: 'connections.changed' });
      return { ok: true as const };
    },

    async reimportKey(input) {
      const connection = requireConnection(input.id);
      checkPrivateKeyPem(input.privateKeyPem);
      await (await keys.vaultFor(connection.secretStore, connection.id)).importPrivateKey(connection.id, input.privateKeyPem);
      if (active?.connection.id === connection.id) active.client.tokens.clear();
      options.publish({ type: 'connections.changed' });
      return connectionInfo(connection);
    },

    async unlock(input) {
      const connection = requireConnection(input.id);
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
      if (active?.connection.id === connection.id) active.client.tokens.clear();
      options.publish({ type: 'connections.changed' });
      return connectionInfo(connection);
    },

    async refreshInstallations(input) {
      const connection = requireConnection(input.id);
      const refreshed = await withRegistry(tracker, 'Refreshing the installations', () => refreshAppFacts(connection));
      connections.put(refreshed);
      if (active?.connection.id === refreshed.id) active.connection = refreshed;
      options.publish({ type: 'connections.changed' });
      return connectionInfo(refreshed);
    },

    logKey: async (input) => ({ logKey: await servedLogKey(input.baseUrl) }),

    async startOver(input) {
      const connection = requireConnection(input.id);
      // what the person reviewed must be what the registry serves now
      const accepted = confirmLogKey(input.logKey, await servedLogKey(connection.baseUrl));
      const wasActive = active?.connection.id === connection.id;
      if (wasActive) {
        await closeActive();
      }
      startCacheOver(paths.cacheFile(connection.id), clock, { key: accepted?.key ?? null });
      const restarted = connections.put({ ...connection, logKey: accepted?.key ?? null });
      if (wasActive) await activate(restarted);
      options.publish({ type: 'connections.changed' });
      return connectionInfo(restarted);
    },

    async close() {
      await closeActive();
      const stopping = embedded;
      embedded = null;
      await stopping?.stop();
    },
  };
}
