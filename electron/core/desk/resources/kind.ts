// What each synced resource's folder exports (resources/<kind>/index.ts, as `kind`): its steps
// through the seed interface, its writers and its queries, and its part of the changes feed
// (feed-part.ts). A leaf module: the folders and the
// list that names them (resources/list.ts) import it, it imports only types. A kind's steps see
// the cache as the shared part and what they name (cache/core.ts), never the whole cache's type,
// which is made from the list: so the list can hold the steps without an import circle.
import type { SyncResource } from '@shared/desk/api';
import type { StepContext, StepOutcome } from '@desk/sync/context';
import type { CoreCache } from '@desk/cache/core';
import type { WriterBase } from '@desk/cache/writers';
import type { QueryBase } from '@desk/cache/queries';
import type { KindFeed, LoadedFeed } from './feed-part';

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

/** A step through the seed interface, given the part of the cache it uses (the engine gives it all). */
export type SeedStep<Cache extends CoreCache = CoreCache> = (ctx: StepContext<Cache>, run: StepRun) => Promise<StepOutcome>;

/**
 * A step's first requests, asked while earlier steps run (sync/prefetch.ts): `ask` makes the calls
 * its step will make first, through `ctx.client`, and writes nothing. It is called once the steps
 * named in `after` (those whose writes its calls depend on) have ended, or at the start.
 */
export interface SeedPrefetch<Cache extends CoreCache = CoreCache> {
  after: readonly SyncResource[];
  ask(ctx: StepContext<Cache>, run: StepRun): void;
}

/** One sync resource's step, and what of it may be asked ahead. */
export interface SeedStepOf<Cache extends CoreCache = CoreCache> {
  resource: SyncResource;
  step: SeedStep<Cache>;
  prefetch?: SeedPrefetch<Cache>;
}

/**
 * One synced resource kind: a folder of resources/, named once in resources/list.ts. `Cache` is
 * what its steps use of the cache (its sync.ts names it, e.g. `CacheWith<ItsWriters, ItsQueries>`).
 */
export interface ResourceKind<
  Writers extends object,
  Queries extends object,
  Cache extends CoreCache,
  Load extends LoadedFeed<Cache> = LoadedFeed<Cache>,
> {
  /** Its folder's name under resources/ (the list's guardrail test holds the two together). */
  folder: string;
  /**
   * Its steps through the seed interface, one per sync resource it fills, in run order. The engine
   * runs those a run asks for that the changes feed did not already bring up to date.
   */
  steps: readonly SeedStepOf<Cache>[];
  /** Its writers, which become `cache.write.*` (no two kinds may share a name). */
  writers(base: WriterBase): Writers;
  /** Its reads, which become `cache.*` (no two kinds may share a name). */
  queries(base: QueryBase): Queries;
  /** Its part of the changes feed's pass (feed-part.ts), when the feed sends its items. */
  feed?: KindFeed<Cache, Load>;
}

/** Every member of a union of object types, as one object type. */
export type AllOf<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

/** A folder's `kind`, its folder's name, writers' and queries' types kept for the cache's (and its load's). */
export const defineKind = <
  Folder extends string,
  Writers extends object,
  Queries extends object,
  Cache extends CoreCache,
  Load extends LoadedFeed<Cache> = LoadedFeed<Cache>,
>(
  kind: ResourceKind<Writers, Queries, Cache, Load> & { folder: Folder },
) => kind;
