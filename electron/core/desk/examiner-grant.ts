// The app's examiner grant, kept on the connection as the registry last said it. An operator may
// grant or revoke it at any time; each sync asks it with the app token it keeps (sync/pass.ts,
// examiner-probe.ts), so Settings follows the registry after "Sync now" as after "Refresh installations".
import type { ConnectionRuntime } from './connection-runtime';
import type { ConnectionManagerOptions } from './connection-manager-api';

/**
 * After a sync: stores the grant the pass found (`examinerRead`; undefined when it could not ask)
 * when it differs from the connection's, and says so.
 */
export function followExaminerGrant(
  options: Pick<ConnectionManagerOptions, 'connections' | 'publish'>,
  runtime: ConnectionRuntime,
  examinerRead: boolean | undefined,
  stillActive: () => boolean,
): void {
  const { connections, publish } = options;
  const stored = connections.get(runtime.connection.id);
  if (examinerRead === undefined || !stored || !stillActive()) return;
  if (stored.examinerRead === examinerRead) return;
  const updated = { ...stored, examinerRead };
  connections.put(updated);
  runtime.connection = updated;
  publish({ type: 'connections.changed' });
}
