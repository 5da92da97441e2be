// The retirements list as the sync and the cache take it (resources/list.ts).
import { feed } from './feed';
import { defineKind } from '@desk/resources/kind';
import { askFirstPage } from '@desk/sync/paged-lists';
import { syncRetirements, type RetirementsContext } from './sync';
import { createRetirementWriters } from './writers';
import { createRetirementQueries } from './queries';

export const kind = defineKind({
  folder: 'retirements',
  steps: [
    {
      resource: 'retirements',
      step: (ctx: RetirementsContext) => syncRetirements(ctx),
      // Every pass, full or not, reads from the newest page: asked at the start.
      prefetch: { after: [], ask: (ctx: RetirementsContext) => askFirstPage(ctx, 'listRetirementsV1') },
    },
  ],
  writers: createRetirementWriters,
  queries: createRetirementQueries,
  feed,
});
