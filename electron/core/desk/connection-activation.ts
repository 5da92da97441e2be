// Which connection is active (connection-manager.ts): its runtime opened and closed, the probe of
// its registry, and the state the manager's parts share.
import { httpProbe, startReachabilityProbe, type ReachabilityProbe } from './reachability-probe';
import { clientFor, openConnectionRuntime, type ConnectionRuntime } from './connection-runtime';
import type { RegistryClient } from './client/registry-client';
import type { StoredConnection } from './connections';
import type { EmbeddedRegistry } from './embedded';
import { DeskFailure } from './errors';
import type { ConnectionManagerOptions } from './connection-manager-api';
import { followExaminerGrant } from './examiner-grant';

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

/** A client for a stored connection (its keys from their store), as its runtime uses it. */
export function connectionClient(m: ManagerState, connection: StoredConnection): RegistryClient {
  const { options } = m;
  const { clock, keys } = options;
  return clientFor({
    baseUrl: connection.baseUrl,
    appId: connection.appId,
    loadPrivateKey: keys.loaderFor(connection),
    ...(connection.operatorId !== undefined
      ? { operator: { operatorId: connection.operatorId, loadPrivateKey: keys.operatorLoaderFor(connection) } }
      : {}),
    clock,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}

/**
 * Opens the connection's runtime (client, cache, sync) as the active one, the previous closed
 * first. `client`: one made for this connection already (connectionClient), whose token it keeps.
 */
export async function activate(
  m: ManagerState,
  connection: StoredConnection,
  client: RegistryClient = connectionClient(m, connection),
): Promise<ConnectionRuntime> {
  const { options } = m;
  const { connections, paths, clock, tracker, log } = options;
  await closeActive(m);
  const runtime = openConnectionRuntime({
    connection,
    client,
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
