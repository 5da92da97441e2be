// The seed interface, projects (4.1).
import { z } from 'zod';
import { pageQuery, noQuery, noParams, EXAMPLE_CREDIT_ID, idString, define, anyToken } from './define';

export const projectEndpoints = {
  // 4.1 Projects
  listProjects: define({
    method: 'GET',
    path: '/projects',
    summary: 'Public projects with a verified organization',
    params: noParams,
    query: pageQuery,
    response: (s) => s.object({ pagination: s.pagination, projects: z.array(s.project) }),
    auth: anyToken,
    tags: ['projects'],
  }),
  listInternalProjects: define({
    method: 'GET',
    path: '/projects/internal',
    summary: 'All projects as seen in the registry application',
    params: noParams,
    query: pageQuery,
    response: (s) => s.object({ pagination: s.pagination, projects: z.array(s.project) }),
    auth: { kind: 'accessToken', permission: 'examiner:read' },
    tags: ['projects'],
  }),
  getInternalProject: define({
    method: 'GET',
    path: '/projects/internal/{projectId}',
    summary: 'One project with its events',
    params: z.object({ projectId: idString('projectId') }),
    query: noQuery,
    response: (s) => s.object({ project: s.internalProject }),
    auth: { kind: 'accessToken', permission: 'examiner:read' },
    tags: ['projects'],
  }),
  findProject: define({
    method: 'GET',
    path: '/projects/find/project',
    summary: 'The project that issued a credit, by serialization or credit id',
    params: noParams,
    query: z
      .object({
        serialization: idString('serialization', 'RDR-KEN-1-1-1-P-1-2021').optional(),
        creditId: idString('creditId', EXAMPLE_CREDIT_ID).optional(),
      })
      .refine((q) => q.serialization !== undefined || q.creditId !== undefined, {
        message: 'serialization or creditId is required',
      })
      // the refinement, as the document states it
      .meta({ anyOf: [{ required: ['serialization'] }, { required: ['creditId'] }] }),
    response: (s) => s.project,
    auth: anyToken,
    tags: ['projects'],
  }),
  getProject: define({
    method: 'GET',
    path: '/projects/{id}',
    summary: 'A public project by id, in the list envelope the interface shows',
    params: z.object({ id: idString('id') }),
    query: noQuery,
    response: (s) => s.object({ pagination: s.pagination, projects: z.array(s.project) }),
    auth: anyToken,
    tags: ['projects'],
  }),
} as const;
