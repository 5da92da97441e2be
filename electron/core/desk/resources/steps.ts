// Each synced resource's step through the seed interface, in the order a run takes them (details
// and credits read the project lists, organizations the proponents). The engine (sync/engine.ts)
// runs the steps a run asks for that the changes feed did not already bring up to date. A new kind
// adds its folder (resources/<kind>/), its line here, and its writers and queries in index.ts.
import type { SyncResource } from '@shared/desk/api';
import type { StepContext, StepOutcome } from '@desk/sync/context';
import { syncInternalProjects, syncProjectList } from './projects/sync';
import { syncPerProjectResources, type PerProjectResource } from './project-answers/sync';
import { syncInventories } from './inventories/sync';
import { syncRetirements } from './retirements/sync';
import { syncWarehouses } from './warehouses/sync';
import { syncInstallationFeeds } from './warehouses/installation-feed';
import { syncOrganizations } from './organizations/sync';

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

/** Details and credits are fetched in one pass when the run asks for both (project-answers/sync.ts). */
function answers(ctx: StepContext, run: StepRun, resource: PerProjectResource): Promise<StepOutcome> {
  const resources: PerProjectResource[] = resource === 'projectDetails' && run.wanted.has('credits') ? [resource, 'credits'] : [resource];
  const outcomes = syncPerProjectResources(ctx, resources);
  if (resources.length === 2) run.ahead('credits', outcomes.credits);
  return outcomes[resource];
}

export const SEED_STEPS: readonly { resource: SyncResource; step: SeedStep }[] = [
  { resource: 'projects', step: (ctx) => syncProjectList(ctx, 'public') },
  { resource: 'internalProjects', step: (ctx) => syncInternalProjects(ctx) },
  { resource: 'projectDetails', step: (ctx, run) => answers(ctx, run, 'projectDetails') },
  { resource: 'credits', step: (ctx, run) => answers(ctx, run, 'credits') },
  { resource: 'inventories', step: (ctx) => syncInventories(ctx) },
  { resource: 'retirements', step: (ctx) => syncRetirements(ctx) },
  // With the feed, the installations' narrowed feeds bring the warehouses (and installed organizations' records).
  { resource: 'warehouses', step: (ctx, run) => (run.feed ? syncInstallationFeeds(ctx) : syncWarehouses(ctx)) },
  { resource: 'organizations', step: (ctx, run) => syncOrganizations(ctx, { feed: run.feed, proponents: run.proponents }) },
];
