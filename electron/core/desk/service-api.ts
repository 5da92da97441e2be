// What the desk service (service.ts) is given and what it answers besides its dispatch table.
import type { CertificatePoolOptions } from '../registry';
import type { RegistryClient } from './client/registry-client';
import type { DeskInput, DeskMethod, DeskOutput, DeskResult } from '@shared/desk/api';
import type { Clock } from '@platform/clock';
import type { FetchLike } from './client/http';
import type { SyncTuning } from './sync/context';
import type { SyncWorkerSettings } from './sync/worker/host';
import type { ProbeSettings } from './connection-manager-api';
import type { ArtifactStore } from './artifacts';
import type { KeyImports } from './key-imports';
import type { DemoSeeder, EmbeddedRegistry } from './embedded';
import type { KeychainAvailability, SecretStoreFactory } from './key-vault';
import type { RemoteLaunch } from './launch-options';
import type { DeskPaths } from './paths';
import type { SettingsStore } from './settings';
import type { DeskDispatcher } from './dispatcher';

export interface DeskServiceOptions {
  dataDir: string;
  host: 'electron' | 'web';
  version: string;
  clock?: Clock;
  /** Opens the secret store of a kind (keychain, encrypted file); 'memory' is handled here. */
  secretStoreFactory?: SecretStoreFactory;
  /** Whether an OS keychain can be used here. */
  probeKeychain?: () => Promise<KeychainAvailability>;
  /** Seeds the embedded registry on its first start (electron/core/registry/seed). */
  seedDemo: DemoSeeder;
  /** Start with this remote registry (--registry-url …) instead of the embedded one. */
  remote?: RemoteLaunch;
  fetch?: FetchLike;
  syncTuning?: Partial<SyncTuning>;
  /** The sync's worker thread (default) or false to sync on this thread (needed with `fetch`). */
  syncWorker?: SyncWorkerSettings | false;
  /** The embedded registry's certificate worker pool: size (default: the cores), built worker script. */
  certificateWorkers?: Omit<CertificatePoolOptions, 'resourcesDir'>;
  /** Run the sync at start and on the settings interval (default true). */
  autoSync?: boolean;
  follow?: { intervalMs: number; timeoutMs: number };
  /** The back office's write retries (tests shorten the wait). */
  backOffice?: { writeAttempts?: number; writeRetryDelayMs?: number };
  /** The registry reachability probe's settings (injectable timers), or false for none. */
  probe?: ProbeSettings | false;
  log?: (line: string) => void;
}

export interface DeskService extends DeskDispatcher {
  readonly artifacts: Pick<ArtifactStore, 'get' | 'release'>;
  readonly keyImports: Pick<KeyImports, 'put'>;
  /** Typed call for in-process callers (menus, tests); same validation as dispatch. */
  call<M extends DeskMethod>(method: M, input: DeskInput<M>): Promise<DeskResult<DeskOutput<M>>>;
  readonly settings: SettingsStore;
  readonly paths: DeskPaths;
  /** The embedded registry, while it runs (tests stop it to go offline). */
  readonly embedded: EmbeddedRegistry | null;
  /** The active connection's typed registry client, operator endpoints included (tests, menus). */
  readonly registryClient: RegistryClient | null;
  /** Syncs the back-office cache now (it also follows every successful sync): tests, menus. */
  syncBackOffice(): Promise<void>;
  close(): Promise<void>;
}
