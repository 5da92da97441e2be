import { randomUUID } from 'node:crypto';
import type { SyncDatabase } from '../platform/db/database';
import type { Clock } from '../platform/clock';
import type { RegistryTables } from './schema';

export type RegistryDb = SyncDatabase<RegistryTables>;

/** What every registry module works with: the database, the clock and the id source. */
export interface RegistryContext {
  db: RegistryDb;
  clock: Clock;
  /** New UUIDs; the demo seed swaps in a deterministic source. */
  newId: () => string;
  /** Public addresses used in the records the registry hands out. */
  urls: RegistryUrls;
}

export interface RegistryUrls {
  /** Base of this service's API, for `url` fields (e.g. http://127.0.0.1:8080). */
  apiBaseUrl: string;
  /** Base of the registry's public website, for `publicUrl` fields and certificate check links. */
  publicBaseUrl: string;
  /** True when no public address was given and `publicBaseUrl` is the stand-in (the embedded demo). */
  publicBaseUrlIsPlaceholder?: boolean;
}

export const defaultNewId = (): string => randomUUID();
