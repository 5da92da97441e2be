// The project lists (public and internal) as the sync and the cache take them (resources/list.ts).
import { feed } from './feed';
import { defineKind } from '@desk/resources/kind';
import { syncInternalProjects, syncProjectList, type ProjectsContext } from './sync';
import { createProjectWriters } from './writers';
import { createProjectQueries } from './queries';

export const kind = defineKind({
  folder: 'projects',
  steps: [
    { resource: 'projects', step: (ctx: ProjectsContext) => syncProjectList(ctx, 'public') },
    { resource: 'internalProjects', step: (ctx: ProjectsContext) => syncInternalProjects(ctx) },
  ],
  writers: createProjectWriters,
  queries: createProjectQueries,
  feed,
});
