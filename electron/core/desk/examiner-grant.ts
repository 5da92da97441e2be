// The app's examiner grant, kept on the connection as the registry last said it. An operator may
// grant or revoke it at any time; each sync obtains a fresh app token (sync/pass.ts), whose
// permissions say it, so Settings follows the registry after "Sync now" as after "Refresh installations".
import type { ConnectionRuntime } from './connection-runtime';
import type { ConnectionManagerOptions } from './connection-manager-api';
import { hasExaminerRead } from './installations';

/** After a sync: stores the grant its token carried when it differs from the connection's, and says so. */
export async function followExaminerGrant(
  options: Pick<ConnectionManagerOptions, 'connections' | 'publish'>,
  runtime: ConnectionRuntime,
  stillActive: () => boolean,
): Promise<void> {
  const { connections, publish } = options;
  // The pass has just obtained this token: it comes from the cache, without a round trip.
  const grant = await runtime.client.tokens.grant({ kind: 'app' }).catch(() => null);
  const stored = connections.get(runtime.connection.id);
  if (!grant || !stored || !stillActive()) return;
  const examinerRead = hasExaminerRead(grant.permissions);
  if (stored.examinerRead === examinerRead) return;
  const updated = { ...stored, examinerRead };
  connections.put(updated);
  runtime.connection = updated;
  publish({ type: 'connections.changed' });
}
