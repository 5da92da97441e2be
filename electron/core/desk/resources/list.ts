// THE list of the desk's synced resource kinds: one folder each under resources/, each exporting
// its `kind` (kind.ts). A new kind is its folder and its line here. The order is the order a run
// takes their seed steps in (per-project answers read the project lists, organizations the
// proponents), and each kind's writers and queries are put together from it for the cache
// (index.ts). test/unit/guardrails/resource-kinds.test.ts holds the list and the folders together.
import type { SyncResource } from '@shared/desk/api';
import type { AllOf, ResourceKind, SeedStep } from './kind';
import { kind as projects } from './projects';
import { kind as projectAnswers } from './project-answers';
import { kind as inventories } from './inventories';
import { kind as retirements } from './retirements';
import { kind as warehouses } from './warehouses';
import { kind as organizations } from './organizations';

export const RESOURCE_KINDS = [projects, projectAnswers, inventories, retirements, warehouses, organizations] as const;

type Kind = (typeof RESOURCE_KINDS)[number];
/** What the kinds' steps use of the cache, together (the whole cache, cache/index.ts, is one). */
type StepsCache = AllOf<Kind extends ResourceKind<object, object, infer Cache> ? Cache : never>;

/** Every kind's seed steps, in run order (the engine, sync/engine.ts). */
export const SEED_STEPS: readonly { resource: SyncResource; step: SeedStep<StepsCache> }[] = RESOURCE_KINDS.flatMap(
  (kind): readonly { resource: SyncResource; step: SeedStep<StepsCache> }[] => kind.steps,
);
