// 4.1 Projects. Public endpoints show only public projects of verified organizations; the internal
// ones (examiner:read, checked by the pipeline) show every project.
import { notFound } from '@registry/errors';
import { ReadCache } from '@registry/queries/read-cache';
import { countProjects, internalProjectById, listProjects, projectById, projectOfCredit } from '@registry/queries/projects';
import type { ProjectVisibility } from '@registry/queries/project-visibility';
import type { RegistryContext } from '@registry/context';
import { pageOf } from '../pagination';
import { jsonText, type Handlers } from '../types';

/** Pages of the project lists, the hottest read of the registry (see read-cache.ts for validity). */
const projectPages = new ReadCache<ReturnType<typeof jsonText<ReturnType<typeof computeProjectPage>>>>(32);

function projectPage(registry: RegistryContext, visibility: ProjectVisibility, page: number, limit: number) {
  return projectPages.get(registry, `${visibility}:${page}:${limit}`, () =>
    jsonText(computeProjectPage(registry, visibility, page, limit)),
  );
}

function computeProjectPage(registry: RegistryContext, visibility: ProjectVisibility, page: number, limit: number) {
  const total = countProjects(registry, visibility);
  const { pagination, offset } = pageOf(total, page, limit);
  // A page past the end is an empty page; skipping the query also keeps huge offsets out of SQLite.
  const projects = offset < total ? listProjects(registry, { visibility, limit, offset }) : [];
  return { pagination, projects };
}

export const projectHandlers: Pick<
  Handlers,
  'listProjects' | 'listInternalProjects' | 'getInternalProject' | 'findProject' | 'getProject'
> = {
  listProjects: ({ registry, query }) => projectPage(registry, 'public', query.page, query.limit),

  listInternalProjects: ({ registry, query }) => projectPage(registry, 'all', query.page, query.limit),

  getInternalProject: ({ registry, params }) => {
    const project = internalProjectById(registry, params.projectId);
    if (!project) throw notFound(`Project ${params.projectId} not found`);
    return { project };
  },

  findProject: ({ registry, query }) => {
    const project = projectOfCredit(registry, { creditId: query.creditId, serialization: query.serialization }, 'public');
    if (!project) {
      const keys = [query.creditId && `creditId ${query.creditId}`, query.serialization && `serialization ${query.serialization}`].filter(
        Boolean,
      );
      throw notFound(`No public project issued a credit with ${keys.join(' and ')}`);
    }
    return project;
  },

  // The interface shows this answer in the list envelope; it holds exactly the one project.
  getProject: ({ registry, params }) => {
    const project = projectById(registry, params.id, 'public');
    if (!project) throw notFound(`Project ${params.id} not found`);
    return { pagination: { total: 1, currentPage: 0, pageCount: 1, nextPage: null, prevPage: null }, projects: [project] };
  },
};
