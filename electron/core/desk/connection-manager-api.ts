// What the connection manager (connection-manager.ts) is given and what it answers: its options,
// its methods (the connections.* methods and start-up), and the shapes of their inputs.
import type { ReachabilityProbeOptions } from './reachability-probe';
import type { ConnectionInfo, DeskEvent, DeskOutput } from '@shared/desk/api';
import type { Clock } from '@platform/clock';
import type { FetchLike } from './client/http';
import type { SyncTuning } from './sync/context';
import type { SyncEngineEvent } from './sync/types';
import type { SyncWorkerSettings } from './sync/worker/host';
import type { ConnectionRuntime } from './connection-runtime';
import type { ConnectionKeys } from './connection-keys';
import type { ConnectionStore } from './connections';
import type { CertificatePoolOptions } from '../registry';
import type { DemoSeeder, EmbeddedRegistry } from './embedded';
import type { KeychainAvailability } from './key-vault';
import type { RemoteLaunch } from './launch-options';
import type { DeskPaths } from './paths';
import type { OnlineTracker } from './registry-calls';
import type { ParsedDeskInput } from './types';

export interface ConnectionManagerOptions {
  connections: ConnectionStore;
  paths: DeskPaths;
  clock: Clock;
  keys: ConnectionKeys;
  keychain: KeychainAvailability;
  /** Reachability of the active connection's registry; a newly activated one starts reachable. */
  tracker: OnlineTracker & { assumeOnline(): void };
  publish(event: DeskEvent): void;
  onSyncEvent(event: SyncEngineEvent): void;
  /** The sync interval now (from the settings). */
  syncIntervalMs(): number;
  /** Run the sync at activation and on the interval. */
  autoSync: boolean;
  seedDemo: DemoSeeder;
  fetch?: FetchLike;
  syncTuning?: Partial<SyncTuning>;
  syncWorker?: SyncWorkerSettings | false;
  /** The embedded registry's certificate worker pool (size, built worker script). */
  certificateWorkers?: Omit<CertificatePoolOptions, 'resourcesDir'>;
  /** The reachability probe of the active registry (reachability-probe.ts); false: none (unit tests). */
  probe?: ProbeSettings | false;
  log(line: string): void;
}

export type ProbeSettings = Partial<Omit<ReachabilityProbeOptions, 'probe' | 'report' | 'isOnline'>>;

export interface ConnectionManager {
  readonly active: ConnectionRuntime | null;
  /** The embedded registry, while it runs. */
  readonly embedded: EmbeddedRegistry | null;
  requireActive(): ConnectionRuntime;
  /** Start-up: the command-line remote if given, else the embedded registry; then the active connection. */
  start(remote?: RemoteLaunch): Promise<void>;
  list(): Promise<DeskOutput<'connections.list'>>;
  /** The service resolves the input's key handle (key-imports.ts) to the PEM first. */
  addRemote(input: AddRemoteInput): Promise<ConnectionInfo>;
  activate(input: ParsedDeskInput<'connections.activate'>): Promise<ConnectionInfo>;
  remove(input: ParsedDeskInput<'connections.remove'>): Promise<{ ok: true }>;
  reimportKey(input: WithPem<ParsedDeskInput<'connections.reimportKey'>>): Promise<ConnectionInfo>;
  unlock(input: ParsedDeskInput<'connections.unlock'>): Promise<ConnectionInfo>;
  refreshInstallations(input: ParsedDeskInput<'connections.refreshInstallations'>): Promise<ConnectionInfo>;
  logKey(input: ParsedDeskInput<'connections.logKey'>): Promise<DeskOutput<'connections.logKey'>>;
  startOver(input: ParsedDeskInput<'connections.startOver'>): Promise<ConnectionInfo>;
  /** Closes the active runtime and stops the embedded registry. */
  close(): Promise<void>;
}

/** connections.addRemote's input, its keys' handles replaced by the keys they name. */
export type AddRemoteInput = Omit<WithPem<ParsedDeskInput<'connections.addRemote'>>, 'operator'> & {
  operator?: { id: string; privateKeyPem: string };
};

/** A connections.* input with its key handle replaced by the key it names. */
export type WithPem<T extends { keyHandle: string }> = Omit<T, 'keyHandle'> & { privateKeyPem: string };
