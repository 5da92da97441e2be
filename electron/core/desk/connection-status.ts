// A connection as the connections.* methods answer it (connection-manager.ts): its key's status,
// its installations as the registry says, and the key its history is checked against.
import type { ConnectionInfo } from '@shared/desk/api';
import { historyStatus, pinnedKey } from './verification/status';
import { logKeyOf } from './verification/log-key';
import type { StoredConnection } from './connections';
import { discoverInstallations } from './installations';
import { probeExaminerRead } from './examiner-probe';
import { connectionClient, type ManagerState } from './connection-activation';

/** Asks the registry which organizations the app is installed in, and whether it may read internal projects. */
export async function refreshAppFacts(
  m: ManagerState,
  connection: StoredConnection,
  // the connection's kept client (the active runtime's too), or the one adding it checks with
  registryClient = connectionClient(m, connection),
): Promise<StoredConnection> {
  const installations = await discoverInstallations(registryClient);
  // Asked with the kept app token, as each sync asks it: a grant revoked (or given) in the
  // registry since shows here without minting a token (and an audit entry) for the question.
  const { examinerRead } = await probeExaminerRead(registryClient);
  return { ...connection, installations, examinerRead };
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
