// The per-project answers (details and credits) as the sync and the cache take them (resources/list.ts).
import { feed } from './feed';
import { defineKind, type StepRun } from '@desk/resources/kind';
import type { StepOutcome } from '@desk/sync/context';
import { syncPerProjectResources, type AnswersContext, type PerProjectResource } from './sync';
import { createProjectAnswerWriters } from './writers';
import { createProjectAnswerQueries } from './queries';

/** Details and credits are fetched in one pass when the run asks for both (sync.ts). */
function answers(ctx: AnswersContext, run: StepRun, resource: PerProjectResource): Promise<StepOutcome> {
  const resources: PerProjectResource[] = resource === 'projectDetails' && run.wanted.has('credits') ? [resource, 'credits'] : [resource];
  const outcomes = syncPerProjectResources(ctx, resources);
  if (resources.length === 2) run.ahead('credits', outcomes.credits);
  return outcomes[resource];
}

export const kind = defineKind({
  folder: 'project-answers',
  steps: [
    { resource: 'projectDetails', step: (ctx: AnswersContext, run: StepRun) => answers(ctx, run, 'projectDetails') },
    { resource: 'credits', step: (ctx: AnswersContext, run: StepRun) => answers(ctx, run, 'credits') },
  ],
  writers: createProjectAnswerWriters,
  queries: createProjectAnswerQueries,
  feed,
});
