// What a resource kind adds to the changes feed's pass (its folder's feed.ts, `kind.feed`): the
// feed item types it takes, how an item is staged into a cache that holds data (sync/feed-stage.ts)
// and how it is loaded straight into an empty one (cache/snapshot-writers.ts, sync/feed-snapshot.ts),
// what it does with the feed's removals, and which resources the pass brings up to date for it.
// The pass iterates the kinds of the list (list.ts) and names none. Types only, like kind.ts.
import type { SyncResource } from '@shared/desk/api';
import type { StepContext, StepOutcome } from '@desk/sync/context';
import type { PreparedItem } from '@desk/sync/worker/page-prep';
import type { CoreCache } from '@desk/cache/core';
import type { SqliteDatabase } from '@platform/db/database';
import type { CacheTables } from '@desk/cache/schema';
import type { CacheResource, StagedRow } from '@desk/cache/types';

export type FeedItemType = PreparedItem['type'];
export type FeedItemOf<T extends FeedItemType> = Extract<PreparedItem, { type: T }>;

/** What a kind may read besides an item: its page's bytes (while its items need them), the app's view. */
export interface FeedPage {
  readonly bytes: Buffer | null;
  /** Whether the app reads with examiner:read (what it may keep of internal items). */
  readonly examinerRead: boolean;
}

/** Ids the feed said left the app's view, by the item type they were sent as. */
export type FeedRemoved = (type: FeedItemType) => readonly string[];

/** Outcomes of the resources a kind brings up to date, by resource. */
export type FeedOutcomes = Partial<Record<SyncResource, StepOutcome>>;

/** One pass as a kind's staged part sees it. `removed` is known once every page has been read. */
export interface FeedPass<Cache extends CoreCache> {
  readonly ctx: StepContext<Cache>;
  /** Whether the pass started from a snapshot: the swap-ins are then full ones. */
  readonly snapshot: boolean;
  readonly removed: FeedRemoved;
}

/** Stages a row in the staging area (batched by the pass). */
export type Stage = (resource: CacheResource, row: StagedRow) => void;

interface TakesItems {
  /** One item of a type the kind names; true when it filled a row of the kind (not: passed it by). */
  take(item: PreparedItem, page: FeedPage): boolean;
  /** The feed said an item of a type the kind names left the app's view (pages send removals after items). */
  dropped?(type: FeedItemType, id: string): void;
}

/** A kind's part of a pass into a cache that holds data: staged, swapped in at the end. */
export interface StagedFeed extends TakesItems {
  /** Whether it holds a change besides the rows it staged through `Stage` (the pass counts those). */
  changed?(): boolean;
  /** The registry does not offer the feed after all: drops what it staged outside the staging area. */
  abandon?(): void;
  /** Swaps in what it staged before the feed's removals are applied (removals may name its new rows). */
  beforeRemovals?(): FeedOutcomes;
  /** Swaps in (or puts) what it staged once the removals are applied. */
  afterRemovals?(): FeedOutcomes;
}

/** A kind's part of a snapshot loaded into an empty cache, inside the load's one transaction. */
export interface LoadedFeed<Cache extends CoreCache = CoreCache> extends TakesItems {
  /** One statement of work that can be done while the load waits for a page (null: none now). */
  idleWork?(): (() => void) | null;
  /** Before the feed's removals are applied. */
  beforeRemovals?(): void;
  /** Finishes its resources as their staged commits do; the rows written, by resource. */
  finish(examinerRead: boolean): Partial<Record<SyncResource, number>>;
  /** Once every kind has finished: puts what needs the pass (the organizations the feed sent). */
  afterFinish?(pass: FeedPass<Cache>): void;
}

/** What the load gives a kind's part. */
export interface LoadBase {
  readonly db: SqliteDatabase<CacheTables>;
  readonly now: () => number;
  /** Marks a resource the load filled as read in full. */
  markSuccess(resource: CacheResource): void;
}

/** A kind's part of the changes feed (`kind.feed`). `Cache` is what it uses of the cache. */
export interface KindFeed<Cache extends CoreCache, Load extends LoadedFeed<Cache> = LoadedFeed<Cache>> {
  /** The feed item types it takes (an item may be taken by more than one kind). */
  items: readonly FeedItemType[];
  /** The resources a pass brings up to date for it, in run order; `examiner`: only with examiner:read (else skipped). */
  resources: readonly { resource: SyncResource; examiner?: boolean }[];
  /** The resources it stages in the cache's staging area (begun by the pass before any item). */
  staging: readonly CacheResource[];
  /** Tables it loads in bulk: their secondary indexes are dropped for a load and built at its end. */
  bulkIndexed: readonly string[];
  /** Tables whose planner statistics a load refreshes before it commits. */
  analyzed: readonly string[];
  /** The id an item names, when not its `id` (an item sent after its removal cancels the removal). */
  idOf?(item: PreparedItem): string | undefined;
  /** Applies the feed's removals of its rows (inside the pass's one transaction of removals); rows removed. */
  remove?(write: Cache['write'], removed: FeedRemoved): number;
  staged(pass: FeedPass<Cache>, stage: Stage): StagedFeed;
  load(base: LoadBase): Load;
}
