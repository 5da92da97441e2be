// Which connection is active (connection-manager.ts): its runtime opened and closed, the probe of
// its registry, and the state the manager's parts share.
import { httpProbe, startReachabilityProbe, type ReachabilityProbe } from './reachability-probe';
import { clientForConnection, openConnectionRuntime, type ConnectionRuntime } from './connection-runtime';
import type { RegistryClient } from './client/registry-client';
import type { StoredConnection } from './connections';
import type { EmbeddedRegistry } from './embedded';
import { DeskFailure } from './errors';
import type { ConnectionManagerOptions } from './connection-manager-api';
import { followExaminerGrant } from './examiner-grant';

/** A connection's client as it was made: for this address, app and operator. */
interface KeptClient {
  baseUrl: string;
  appId: string;
  operatorId: string | undefined;
  client: RegistryClient;
}

/**
 * The manager's state, which its parts share: the embedded registry, the active runtime and its
 * probe, and each connection's client (connectionClient).
 */
export interface ManagerState {
  readonly options: ConnectionManagerOptions;
  embedded: EmbeddedRegistry | null;
  active: ConnectionRuntime | null;
  probe: ReachabilityProbe | null;
  readonly clients: Map<string, KeptClient>;
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

/**
 * The connection's client, kept while the desk runs (made on first use, its keys read from their
 * store): the app token minted by its first question serves start-up, "Refresh installations",
 * each activation and each sync of the connection. Every token minted is a token row, an audit
 * entry and a log leaf on the registry, so a client per call would leave one of each per call.
 */
export function connectionClient(m: ManagerState, connection: StoredConnection): RegistryClient {
  const kept = m.clients.get(connection.id);
  if (kept && kept.baseUrl === connection.baseUrl && kept.appId === connection.appId && kept.operatorId === connection.operatorId)
    return kept.client;
  const client = clientForConnection(connection, m.options);
  keepClient(m, connection, client);
  return client;
}

/** Keeps `client` as the connection's (connectionClient): one made for it already, its token kept. */
export function keepClient(m: ManagerState, connection: StoredConnection, client: RegistryClient): void {
  m.clients.set(connection.id, { baseUrl: connection.baseUrl, appId: connection.appId, operatorId: connection.operatorId, client });
}

/**
 * Opens the connection's runtime (its kept client, cache, sync) as the active one, the previous
 * closed first.
 */
export async function activate(m: ManagerState, connection: StoredConnection): Promise<ConnectionRuntime> {
  const { options } = m;
  const { connections, paths, clock, tracker, log } = options;
  await closeActive(m);
  const runtime = openConnectionRuntime({
    connection,
    client: connectionClient(m, connection),
    paths,
    clock,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.syncTuning ? { syncTuning: options.syncTuning } : {}),
    ...(options.syncWorker !== undefined ? { syncWorker: options.syncWorker } : {}),
    onSyncEvent: (event) => {
      options.onSyncEvent(event);
      const active = m.active;
      if (event.type === 'finished' && active) followExaminerGrant(options, active, event.result.examinerRead, () => m.active === active);
    },
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

/** Drops the tokens the connection's client keeps (its key re-imported or unlocked): the next call mints one with the key as it is. */
export function forgetTokens(m: ManagerState, connection: StoredConnection): void {
  m.clients.get(connection.id)?.client.tokens.clear();
  if (m.active?.connection.id === connection.id) m.active.client.tokens.clear();
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
