// The connections start-up makes: the embedded demo registry's (the registry started, its app key
// and local administrator put in the connection's secret store at every start) and the command-line
// remote's (its key in memory). Each answers the connection as stored, its app facts refreshed
// where the registry answers (connection-manager.ts start).
import type { SecretStoreKind, StoredConnection } from './connections';
import { checkPrivateKeyPem } from './connection-keys';
import type { ConnectionManagerOptions } from './connection-manager-api';
import { startEmbeddedRegistry, type EmbeddedRegistry } from './embedded';
import { ensureLocalAdministrator, operatorKeyId } from './local-operator';
import type { RemoteLaunch } from './launch-options';
import { isUnreachable, translateClientError } from './registry-calls';
import { keychainCause } from './secrets';

export const EMBEDDED_CONNECTION_ID = 'embedded';
export const COMMAND_LINE_CONNECTION_ID = 'command-line';

/** What start-up takes of the manager: its options, and how it asks the registry for the app's facts. */
export interface StartupDeps extends Pick<
  ConnectionManagerOptions,
  'connections' | 'paths' | 'clock' | 'keys' | 'keychain' | 'log' | 'seedDemo' | 'certificateWorkers'
> {
  refreshAppFacts(connection: StoredConnection): Promise<StoredConnection>;
}

export async function startEmbeddedConnection(deps: StartupDeps, started: (embedded: EmbeddedRegistry) => void): Promise<StoredConnection> {
  const { connections, paths, clock, keys, keychain, log } = deps;
  const embedded = await startEmbeddedRegistry({
    dataDir: paths.embeddedRegistryDir,
    clock,
    seed: deps.seedDemo,
    scale: 1,
    log,
    ...(deps.certificateWorkers ? { certificateWorkers: deps.certificateWorkers } : {}),
  });
  started(embedded);
  const existing = connections.get(EMBEDDED_CONNECTION_ID);
  let secretStore: SecretStoreKind = existing?.secretStore ?? (keychain.available ? 'keychain' : 'memory');
  if (secretStore === 'encrypted-file') secretStore = 'memory';
  if (secretStore === 'memory' && !existing) {
    log(
      `${keychainCause(keychain.reason)} The embedded demo app's key is kept in memory and re-read from the demo credentials at every start; the local administrator gets a new key at every start.`,
    );
  }
  // The demo key is re-imported at every start: it is demo data, and a memory store forgets it.
  await (
    await keys.vaultFor(secretStore, EMBEDDED_CONNECTION_ID)
  ).importPrivateKey(EMBEDDED_CONNECTION_ID, embedded.credentials.app.privateKeyPem);
  // The embedded registry's local administrator, its key in the same store as the app key (in
  // memory, it is the same account with a new key at every start: local-operator.ts).
  const { id: operatorId } = await ensureLocalAdministrator(embedded.registry, {
    previousId: existing?.operatorId,
    vault: await keys.vaultFor(secretStore, operatorKeyId(EMBEDDED_CONNECTION_ID)),
    keyId: operatorKeyId(EMBEDDED_CONNECTION_ID),
    log,
  });
  const connection: StoredConnection = {
    id: EMBEDDED_CONNECTION_ID,
    name: existing?.name ?? 'Embedded demo registry',
    operatorId,
    kind: 'embedded',
    baseUrl: embedded.url,
    appId: embedded.credentials.app.id,
    secretStore,
    examinerRead: existing?.examinerRead ?? false,
    installations: existing?.installations ?? [],
    // a key pinned by starting over stays pinned
    ...(existing?.logKey !== undefined ? { logKey: existing.logKey } : {}),
  };
  return connections.put(await deps.refreshAppFacts(connection));
}

export async function startCommandLineConnection(deps: StartupDeps, remote: RemoteLaunch): Promise<StoredConnection> {
  const { connections, keys, log } = deps;
  checkPrivateKeyPem(remote.privateKeyPem);
  await keys.memory.importPrivateKey(COMMAND_LINE_CONNECTION_ID, remote.privateKeyPem);
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
    connection = await deps.refreshAppFacts(connection);
  } catch (error) {
    // Starting against a registry that is down is allowed (the cache still answers reads).
    if (!isUnreachable(error)) throw translateClientError(error, 'Connecting to the registry');
    log(`the registry at ${remote.baseUrl} cannot be reached; starting from the cache`);
  }
  return connections.put(connection);
}
