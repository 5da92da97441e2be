// THE list of the desk's synced resource kinds: one folder each under resources/, each exporting
// its `kind` (kind.ts). A new kind is its folder and its line here. The order is the order a run
// takes their seed steps in (per-project answers read the project lists, organizations the
// proponents), and each kind's writers and queries are put together from it for the cache
// (index.ts), and the changes feed's pass from their feed parts (feed-part.ts). test/unit/guardrails/resource-kinds.test.ts holds the list and the folders together.
import type { SyncResource } from '@shared/desk/api';
import type { AllOf, SeedStep, SeedStepOf } from './kind';
import type { KindFeed, LoadedFeed } from './feed-part';
import { kind as projects } from './projects';
import { kind as projectAnswers } from './project-answers';
import { kind as inventories } from './inventories';
import { kind as retirements } from './retirements';
import { kind as warehouses } from './warehouses';
import { kind as organizations } from './organizations';

export const RESOURCE_KINDS = [projects, projectAnswers, inventories, retirements, warehouses, organizations] as const;

type Kind = (typeof RESOURCE_KINDS)[number];
/** What the kinds' steps use of the cache, together (the whole cache, cache/index.ts, is one). */
type StepsCache = AllOf<Kind extends { steps: readonly { step: SeedStep<infer Cache> }[] } ? Cache : never>;

/** Every kind's seed steps, in run order (the engine, sync/engine.ts). */
export const SEED_STEPS: readonly SeedStepOf<StepsCache>[] = RESOURCE_KINDS.flatMap(
  (kind): readonly SeedStepOf<StepsCache>[] => kind.steps,
);

/** The whole cache as the kinds' feed parts see it together. */
export type FeedCache = StepsCache;
export type FeedKind = { readonly folder: string; readonly feed: KindFeed<FeedCache, LoadedFeed<FeedCache>> };

/** The kinds the changes feed sends items of, in run order (the pass: sync/feed-*.ts, cache/snapshot-writers.ts). */
export const FEED_KINDS: readonly FeedKind[] = RESOURCE_KINDS.flatMap((kind): FeedKind[] =>
  kind.feed ? [{ folder: kind.folder, feed: kind.feed }] : [],
);

/** The resources one feed pass brings up to date, in run order. */
export const FEED_RESOURCES: readonly SyncResource[] = FEED_KINDS.flatMap((kind) => kind.feed.resources.map((r) => r.resource));
