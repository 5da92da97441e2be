// The retirements list as the sync and the cache take it (resources/list.ts).
import { feed } from './feed';
import { defineKind } from '@desk/resources/kind';
import { syncRetirements, type RetirementsContext } from './sync';
import { createRetirementWriters } from './writers';
import { createRetirementQueries } from './queries';

export const kind = defineKind({
  folder: 'retirements',
  steps: [{ resource: 'retirements', step: (ctx: RetirementsContext) => syncRetirements(ctx) }],
  writers: createRetirementWriters,
  queries: createRetirementQueries,
  feed,
});
