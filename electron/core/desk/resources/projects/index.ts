// The project lists (public and internal) as the sync and the cache take them (resources/list.ts).
import { feed } from './feed';
import { defineKind } from '@desk/resources/kind';
import { askPagesAhead } from '@desk/sync/paged-lists';
import { syncInternalProjects, syncProjectList, type ProjectsContext } from './sync';
import { createProjectWriters } from './writers';
import { createProjectQueries } from './queries';

export const kind = defineKind({
  folder: 'projects',
  steps: [
    { resource: 'projects', step: (ctx: ProjectsContext) => syncProjectList(ctx, 'public') },
    {
      resource: 'internalProjects',
      step: (ctx: ProjectsContext) => syncInternalProjects(ctx),
      // Its first page comes while the public list is read (without examiner:read nothing is asked).
      prefetch: { after: [], ask: (ctx: ProjectsContext) => void (ctx.examinerRead && askPagesAhead(ctx, 'listInternalProjects')) },
    },
  ],
  writers: createProjectWriters,
  queries: createProjectQueries,
  feed,
});
