// The project lists through the seed interface: every page of the public list, and of the internal
// one with examiner:read (without it the internal list is emptied), swapped in at the end in one
// transaction or, into an empty scope (a first sync), loaded straight into the table.
import { RegistryClientError } from '@desk/client/errors';
import type { StepContext, StepOutcome } from '@desk/sync/context';
import { readAllPages } from '@desk/sync/paged-lists';
import type { createProjectWriters } from './writers';
import type { createProjectQueries } from './queries';
import type { CacheWith } from '@desk/cache/core';

/** The cache as the project lists' steps use it. */
export type ProjectsContext = StepContext<CacheWith<ReturnType<typeof createProjectWriters>, ReturnType<typeof createProjectQueries>>>;

export async function syncProjectList(ctx: ProjectsContext, scope: 'public' | 'internal'): Promise<StepOutcome> {
  const resource = scope === 'public' ? 'projects' : 'internalProjects';
  const endpoint = scope === 'public' ? 'listProjects' : 'listInternalProjects';
  if (ctx.cache.write.projectsLoadable(scope)) {
    // The first sync: rows straight into the table (writers.ts beginProjectsLoad).
    const load = ctx.cache.write.beginProjectsLoad(scope);
    try {
      const read = await readAllPages(ctx, resource, endpoint, { stopWhenKnown: false, load });
      return { status: 'ok', ...load.commit({ pageHashes: read.pageHashes, total: read.total }) };
    } catch (error) {
      load.rollback();
      throw error;
    }
  }
  ctx.cache.write.beginStaging(resource);
  const { pageHashes, total } = await readAllPages(ctx, resource, endpoint, { stopWhenKnown: false });
  const { written, deleted } = ctx.cache.write.commitProjects(scope, { full: true, pageHashes, total });
  return { status: 'ok', written, deleted };
}

/** The internal list, or, without examiner:read, an empty one (internal data the app may no longer see must not linger). */
export async function syncInternalProjects(ctx: ProjectsContext): Promise<StepOutcome> {
  if (!ctx.examinerRead) {
    clearInternalProjects(ctx);
    return { status: 'skipped', reason: 'the app lacks examiner:read' };
  }
  try {
    return await syncProjectList(ctx, 'internal');
  } catch (error) {
    if (error instanceof RegistryClientError && error.status === 403) return { status: 'skipped', reason: error.message };
    throw error;
  }
}

/**
 * Commits an empty internal list, and with it removes every answer only examiner:read let the desk
 * read (the internal details and events, the credits of projects not public): one transaction.
 */
export function clearInternalProjects(ctx: Pick<ProjectsContext, 'cache'>): void {
  ctx.cache.write.forgetInternalProjects();
}
