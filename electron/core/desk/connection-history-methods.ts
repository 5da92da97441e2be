// connections.logKey and connections.startOver (connection-manager.ts): the registry's log key.
import { confirmLogKey, fetchLogKey } from './verification/log-key';
import { startCacheOver } from './verification/start-over';
import { DeskFailure } from './errors';
import { isUnreachable, translateClientError } from './registry-calls';
import type { ConnectionManager } from './connection-manager-api';
import { activate, closeActive, requireConnection, type ManagerState } from './connection-activation';
import { connectionInfo } from './connection-status';

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
