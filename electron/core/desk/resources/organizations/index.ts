// The organizations' records as the sync and the cache take them (resources/list.ts).
import { defineKind } from '@desk/resources/kind';
import { syncOrganizations } from './sync';
import { createOrganizationWriters } from './writers';
import { createOrganizationQueries } from './queries';

export const kind = defineKind({
  folder: 'organizations',
  // Organizations read the projects' proponents: after every list.
  steps: [{ resource: 'organizations', step: (ctx, run) => syncOrganizations(ctx, { feed: run.feed, proponents: run.proponents }) }],
  writers: createOrganizationWriters,
  queries: createOrganizationQueries,
});
