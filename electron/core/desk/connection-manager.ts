// The desk's registry connections: which one is active (its runtime: client, cache, sync), the
// embedded demo registry, the command-line remote, and the connections.* methods that add,
// activate, re-key, unlock, refresh and remove them. Only one connection is active at a time;
// activating another closes the previous runtime first. Activation is connection-activation.ts,
// the answers' status connection-status.ts, the key and history-key methods beside them.
import { DeskFailure } from './errors';
import type { RemoteLaunch } from './launch-options';
import { withRegistry } from './registry-calls';
import type { ConnectionManager, ConnectionManagerOptions } from './connection-manager-api';
import { addRemoteConnection } from './connection-add';
import { EMBEDDED_CONNECTION_ID, startCommandLineConnection, startEmbeddedConnection, type StartupDeps } from './connection-startup';
import { activate, closeActive, keepClient, requireActive, requireConnection, type ManagerState } from './connection-activation';
import { connectionInfo, refreshAppFacts } from './connection-status';
import { historyMethods } from './connection-history-methods';
import { keyMethods } from './connection-key-methods';

export { COMMAND_LINE_CONNECTION_ID, EMBEDDED_CONNECTION_ID } from './connection-startup';

export function createConnectionManager(options: ConnectionManagerOptions): ConnectionManager {
  const { connections, keys, keychain, tracker } = options;
  const m: ManagerState = { options, embedded: null, active: null, probe: null, clients: new Map() };

  // ---- start-up: the embedded registry, the command-line remote (connection-startup.ts), the active connection

  // Start-up asks each connection's app facts with its kept client (connectionClient), which its
  // runtime then takes: the app token minted for the question is the one the sync uses.
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
        {
          ...options,
          refreshAppFacts: (connection, client) => refreshAppFacts(m, connection, client),
          keepClient: (connection, client) => keepClient(m, connection, client),
        },
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
      m.clients.delete(connection.id);
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
      m.clients.clear();
      const stopping = m.embedded;
      m.embedded = null;
      await stopping?.stop();
    },
  };
}
