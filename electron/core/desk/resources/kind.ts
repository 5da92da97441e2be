// What each synced resource's folder exports (resources/<kind>/index.ts, as `kind`): its steps
// through the seed interface, its writers and its queries. A leaf module: the folders and the
// list that names them (resources/list.ts) import it, it imports only types.
import type { SyncResource } from '@shared/desk/api';
import type { StepContext, StepOutcome } from '@desk/sync/context';
import type { WriterBase } from '@desk/cache/writers';
import type { QueryBase } from '@desk/cache/queries';

/** What a step may ask of the run it is part of. */
export interface StepRun {
  /** The resources this run syncs. */
  wanted: ReadonlySet<SyncResource>;
  /** Hands the run a step this one started alongside itself (awaited in its own turn). */
  ahead(resource: SyncResource, outcome: Promise<StepOutcome>): void;
  /** Whether this connection's registry offers the changes feed and the desk uses it. */
  feed: boolean;
  /** The proponents of the cached projects (kept by the engine while the feed finds nothing changed). */
  proponents(): string[];
}

export type SeedStep = (ctx: StepContext, run: StepRun) => Promise<StepOutcome>;

/** One synced resource kind: a folder of resources/, named once in resources/list.ts. */
export interface ResourceKind<Writers extends object, Queries extends object> {
  /** Its folder's name under resources/ (the list's guardrail test holds the two together). */
  folder: string;
  /**
   * Its steps through the seed interface, one per sync resource it fills, in run order. The engine
   * runs those a run asks for that the changes feed did not already bring up to date.
   */
  steps: readonly { resource: SyncResource; step: SeedStep }[];
  /** Its writers, which become `cache.write.*` (no two kinds may share a name). */
  writers(base: WriterBase): Writers;
  /** Its reads, which become `cache.*` (no two kinds may share a name). */
  queries(base: QueryBase): Queries;
}

/** A folder's `kind`, its writers' and queries' types kept for the cache's. */
export const defineKind = <Writers extends object, Queries extends object>(kind: ResourceKind<Writers, Queries>) => kind;
