// The desk's synced resources, put together for the cache from THE list (list.ts): every kind's
// writers become `cache.write.*` and its queries `cache.*` (cache/index.ts).
import type { WriterBase } from '@desk/cache/writers';
import type { QueryBase } from '@desk/cache/queries';
import type { AllOf } from './kind';
import { RESOURCE_KINDS } from './list';

type Kind = (typeof RESOURCE_KINDS)[number];
type KindWriters = AllOf<ReturnType<Kind['writers']>>;
type KindQueries = AllOf<ReturnType<Kind['queries']>>;

/** What the changes feed said left the app's view, by resource (ids). */
export interface FeedRemovals {
  projects: readonly string[];
  internalProjects: readonly string[];
  projectDetails: readonly string[];
  credits: readonly string[];
  retirements: readonly string[];
}

export function createResourceWriters(base: WriterBase) {
  const writers = Object.assign({}, ...RESOURCE_KINDS.map((kind) => kind.writers(base))) as KindWriters;
  return {
    ...writers,

    /**
     * Applies what the registry's changes feed says left the app's view: list rows (with their
     * search entries) and per-project answers, in one transaction.
     */
    removeFeedRows(removed: FeedRemovals): number {
      return base.db.transaction(
        () =>
          writers.removeProjects('public', removed.projects) +
          writers.removeProjects('internal', removed.internalProjects) +
          writers.removeRetirements(removed.retirements) +
          writers.removeProjectAnswers('projectDetails', removed.projectDetails) +
          writers.removeProjectAnswers('credits', removed.credits),
      );
    },
  };
}

export function createResourceQueries(base: QueryBase): KindQueries {
  return Object.assign({}, ...RESOURCE_KINDS.map((kind) => kind.queries(base))) as KindQueries;
}
