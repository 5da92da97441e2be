// What the desk API's method groups (this folder) share, and the shape of a group: the handlers
// of one area of shared/desk/api.ts, as the desk service (service.ts) dispatches to them.
import type { DeskMethod, DeskOutput } from '@shared/desk/api';
import type { Clock } from '@platform/clock';
import type { ArtifactStore } from '@desk/artifacts';
import type { BackOffice } from '@desk/back-office';
import type { ConnectionManager } from '@desk/connection-manager-api';
import type { EventHub } from '@desk/events';
import type { KeyImports } from '@desk/key-imports';
import type { DeskPaths } from '@desk/paths';
import type { OnlineTracker } from '@desk/registry-calls';
import type { DeskServiceOptions } from '@desk/service-api';
import type { SettingsStore } from '@desk/settings';
import type { ParsedDeskInput } from '@desk/types';
import type * as writes from '@desk/writes';

/** What the desk API's method groups share: the service's stores, its connections and back office. */
export interface ServiceContext {
  options: DeskServiceOptions;
  clock: Clock;
  log: (line: string) => void;
  paths: DeskPaths;
  settings: SettingsStore;
  hub: EventHub;
  tracker: OnlineTracker;
  artifacts: ArtifactStore;
  keyImports: KeyImports;
  connections: ConnectionManager;
  backOffice: BackOffice;
  // Sync runs ended in this service's life (SyncStatus.runsEnded), across connection switches.
  runsEnded: { service: string; count: number };
  syncIntervalMs(): number;
  /** The active connection's cache, which answers every read. */
  cache(): ReturnType<ConnectionManager['requireActive']>['cache'];
  /** A read marked with whether the registry is reachable now. */
  fresh<T extends object>(value: T): T & { offline: boolean };
  /** What a registry write needs: the active connection, and how its events and follow-up go. */
  writeContext(): writes.WriteContext;
}

export type Handlers = { [M in DeskMethod]: (input: ParsedDeskInput<M>) => Promise<DeskOutput<M>> | DeskOutput<M> };
/** The handlers of the desk API's methods in the areas named (the prefix before the dot). */
export type MethodGroup<Area extends string> = Pick<Handlers, Extract<DeskMethod, `${Area}.${string}`>>;
