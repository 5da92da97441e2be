// The retirements list as the sync and the cache take it (resources/list.ts).
import { feed } from './feed';
import { defineKind } from '@desk/resources/kind';
import { askPagesAhead, LIST_PAGES_ASKED_AHEAD } from '@desk/sync/paged-lists';
import { fullPassDue, syncRetirements, type RetirementsContext } from './sync';
import { createRetirementWriters } from './writers';
import { createRetirementQueries } from './queries';

export const kind = defineKind({
  folder: 'retirements',
  steps: [
    {
      resource: 'retirements',
      step: (ctx: RetirementsContext) => syncRetirements(ctx),
      // Every pass reads from the newest page; a full one reads on, so its first pages are asked
      // too (up to 128: beside the per-project answers, not after them). Once the project lists
      // are in: asked at the start, they queued before the lists' pages.
      prefetch: {
        after: ['projects', 'internalProjects'],
        ask: (ctx: RetirementsContext) => askPagesAhead(ctx, 'listRetirementsV1', fullPassDue(ctx) ? LIST_PAGES_ASKED_AHEAD : 1),
      },
    },
  ],
  writers: createRetirementWriters,
  queries: createRetirementQueries,
  feed,
});
