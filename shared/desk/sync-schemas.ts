// The desk API's sync: the resources the desk syncs, a run's progress and the status the renderer
// shows (api.ts re-exports them all).
import { z } from 'zod';
import { isoTime } from './field-schemas';
import { historyVerification } from './connection-schemas';

export const SYNC_RESOURCES = [
  'projects',
  'internalProjects',
  'projectDetails',
  'credits',
  'inventories',
  'retirements',
  'warehouses',
  'organizations',
] as const;
export const syncResource = z.enum(SYNC_RESOURCES);
export type SyncResource = z.infer<typeof syncResource>;

export const syncProgress = z.object({
  resource: syncResource,
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative().nullable(),
  /** Estimated milliseconds left for the whole run, when it can be estimated. */
  etaMs: z.number().nonnegative().nullable(),
});
export type SyncProgress = z.infer<typeof syncProgress>;

export const syncStatus = z.object({
  running: z.boolean(),
  progress: syncProgress.nullable(),
  lastSuccess: z.record(z.string(), isoTime.nullable()),
  lastError: z.string().nullable(),
  online: z.boolean(),
  /** The oldest successful sync time among the resources shown, i.e. how old the data may be. */
  dataAsOf: isoTime.nullable(),
  /**
   * How many sync runs have ended (finished or failed) in this desk service's life, and which life
   * (a restarted service counts again from 0 under a new id). Statuses and sync events travel on
   * different channels and either can be late or lost: the count tells the page whether a status
   * it reads is older than an end it has already heard, and whether an end happened that it never heard.
   */
  runsEnded: z.object({ service: z.string(), count: z.number().int().nonnegative() }),
  history: historyVerification.optional(),
});
export type SyncStatus = z.infer<typeof syncStatus>;
/** A sync engine's own status: the desk service adds the count of ended runs. */
export type EngineSyncStatus = Omit<SyncStatus, 'runsEnded'>;
