// The organizations' records as the sync and the cache take them (resources/list.ts).
import { feed } from './feed';
import { defineKind, type StepRun } from '@desk/resources/kind';
import { askOrganizationsAhead, syncOrganizations, type OrganizationsContext } from './sync';
import { createOrganizationWriters } from './writers';
import { createOrganizationQueries } from './queries';

export const kind = defineKind({
  folder: 'organizations',
  // Organizations read the projects' proponents: after every list.
  steps: [
    {
      resource: 'organizations',
      step: (ctx: OrganizationsContext, run: StepRun) => syncOrganizations(ctx, { feed: run.feed, proponents: run.proponents }),
      // Its records are fetched while the per-project answers and the rest download.
      prefetch: {
        after: ['projects', 'internalProjects'],
        ask: (ctx: OrganizationsContext, run: StepRun) => askOrganizationsAhead(ctx, { feed: run.feed, proponents: run.proponents }),
      },
    },
  ],
  writers: createOrganizationWriters,
  queries: createOrganizationQueries,
  feed,
});
