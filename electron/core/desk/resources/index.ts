// The desk's synced resources, one folder each (resources/<kind>/: its sync step, its writers, its
// queries), put together here for the cache: every resource's writers become `cache.write.*` and its
// queries `cache.*` (cache/index.ts). A new kind adds its folder and its line in each list below.
import type { WriterBase } from '@desk/cache/writers';
import { walkSortIndex, type QueryBase } from '@desk/cache/queries';
import { createProjectWriters } from './projects/writers';
import { createProjectAnswerWriters } from './project-answers/writers';
import { createInventoryWriters } from './inventories/writers';
import { createRetirementWriters } from './retirements/writers';
import { createOrganizationWriters } from './organizations/writers';
import { createWarehouseWriters } from './warehouses/writers';
import { createProjectQueries } from './projects/queries';
import { createProjectAnswerQueries } from './project-answers/queries';
import { createInventoryQueries } from './inventories/queries';
import { createRetirementQueries } from './retirements/queries';
import { createOrganizationQueries } from './organizations/queries';
import { createWarehouseQueries } from './warehouses/queries';

/** What the changes feed said left the app's view, by resource (ids). */
export interface FeedRemovals {
  projects: readonly string[];
  internalProjects: readonly string[];
  projectDetails: readonly string[];
  credits: readonly string[];
  retirements: readonly string[];
}

export function createResourceWriters(base: WriterBase) {
  const projects = createProjectWriters(base);
  const answers = createProjectAnswerWriters(base);
  const retirements = createRetirementWriters(base);
  return {
    ...projects,
    ...answers,
    // The registry accounts' inventories: staged per account, swapped in together.
    ...createInventoryWriters(base.db, base.now, () => base.markSuccess('inventories', { full: true })),
    ...retirements,
    ...createOrganizationWriters(base),
    ...createWarehouseWriters(base),

    /**
     * Applies what the registry's changes feed says left the app's view: list rows (with their
     * search entries) and per-project answers, in one transaction.
     */
    removeFeedRows(removed: FeedRemovals): number {
      return base.db.transaction(
        () =>
          projects.removeProjects('public', removed.projects) +
          projects.removeProjects('internal', removed.internalProjects) +
          retirements.removeRetirements(removed.retirements) +
          answers.removeProjectAnswers('projectDetails', removed.projectDetails) +
          answers.removeProjectAnswers('credits', removed.credits),
      );
    },
  };
}

export function createResourceQueries(base: QueryBase) {
  return {
    ...createProjectQueries(base),
    ...createProjectAnswerQueries(base),
    ...createInventoryQueries(base.db, {
      parseInput: base.parseInput,
      memoized: base.memoized,
      walkSortIndex,
      lastSuccessAt: () => base.lastSuccessOf('inventories'),
    }),
    ...createRetirementQueries(base),
    ...createOrganizationQueries(base),
    ...createWarehouseQueries(base),
  };
}
