// The project lists' part of the changes feed (resources/feed-part.ts): public and internal list
// rows staged and swapped in before the feed's removals, or loaded straight into an empty cache.
import type { KindFeed } from '@desk/resources/feed-part';
import type { StepOutcome } from '@desk/sync/context';
import { clearInternalProjects, type ProjectsContext } from './sync';
import { loadProjects } from './feed-load';

export const feed: KindFeed<ProjectsContext['cache'], ReturnType<typeof loadProjects>> = {
  items: ['project', 'internalProject'],
  resources: [{ resource: 'projects' }, { resource: 'internalProjects', examiner: true }],
  staging: ['projects', 'internalProjects'],
  bulkIndexed: [],
  analyzed: ['projects'],
  remove: (write, removed) =>
    write.removeProjects('public', removed('project')) + write.removeProjects('internal', removed('internalProject')),
  staged: ({ ctx, snapshot }, stage) => ({
    take(item) {
      if (item.type === 'project') stage('projects', { id: item.id, hash: item.hash, json: item.json });
      else if (item.type === 'internalProject') stage('internalProjects', { id: item.id, hash: item.hash, json: item.json });
      else return false;
      return true;
    },
    beforeRemovals() {
      const full = { full: snapshot, pageHashes: [] };
      const projects: StepOutcome = { status: 'ok', ...ctx.cache.write.commitProjects('public', full) };
      if (ctx.examinerRead) return { projects, internalProjects: { status: 'ok', ...ctx.cache.write.commitProjects('internal', full) } };
      // Internal data the app may no longer see must not linger (as the seed path's step does).
      clearInternalProjects(ctx);
      return { projects };
    },
  }),
  load: loadProjects,
};
