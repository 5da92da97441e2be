// The operator interface: projects and their status.
import { z } from 'zod';
import { operatorResources } from '../operator-resources';
import { PROJECT_STATUSES } from '../vocabulary';
import * as inputs from '../operator-inputs';
import { pageQuery, noQuery, noParams, EXAMPLE_UUID, idString, define, viewer, manager } from './define';
import { refusals, refused } from './refusals';

export const operatorProjectEndpoints = {
  operatorListProjects: define({
    method: 'GET',
    path: '/operator/v1/projects',
    summary: 'Every project, any status, with its status history',
    params: noParams,
    query: pageQuery.extend({ status: z.enum(PROJECT_STATUSES).optional() }),
    response: (s) => s.object({ pagination: s.pagination, projects: z.array(operatorResources(s).project) }),
    auth: viewer,
    tags: ['operator'],
  }),
  operatorGetProject: define({
    method: 'GET',
    path: '/operator/v1/projects/{projectId}',
    summary: "One project, any status, with its status history and every field of the interface's project",
    params: z.object({ projectId: idString('projectId') }),
    query: noQuery,
    response: (s) => s.object({ project: operatorResources(s).project, details: s.project }),
    auth: viewer,
    tags: ['operator'],
  }),
  operatorCreateProject: define({
    method: 'POST',
    path: '/operator/v1/projects',
    summary: 'Create a project with its proponents, validators, documents and benefits',
    params: noParams,
    query: noQuery,
    body: inputs.createProjectInput.meta({
      examples: [
        {
          fullName: 'Kilimanjaro Reforestation',
          startDate: '2021-01-01',
          creditingPeriodStartDate: '2021-06-01',
          countryCode: 'KE',
          sector: { id: 'forestry', title: 'Forestry and land use' },
          methodology: { id: 'icr-ar-001', title: 'Afforestation and reforestation' },
          type: { id: 'removal', title: 'Removal', description: 'Removes CO2' },
          organizationId: EXAMPLE_UUID,
        },
      ],
    }),
    response: (s) => s.object({ id: z.string(), num: z.string(), contractAddress: z.string() }),
    auth: manager,
    tags: ['operator'],
    status: 201,
    audit: 'projects.create',
    refusals: [
      refusals.repeatedId,
      refusals.noOrganization,
      refusals.idTaken('project'),
      refused(409, 'num is already the number of another project'),
      refused(409, 'contractAddress is already the contract address of another project'),
      refusals.documentTaken,
    ],
  }),
  operatorUpdateProject: define({
    method: 'PATCH',
    path: '/operator/v1/projects/{projectId}',
    summary: 'Edit a draft project: every field given replaces the stored one (null clears an optional one)',
    params: z.object({ projectId: idString('projectId') }),
    query: noQuery,
    body: inputs.updateProjectBody.meta({
      examples: [
        {
          fullName: 'Kilimanjaro Reforestation II',
          location: { lat: -3.07, lng: 37.35 },
          documentation: [{ uri: 'https://example.org/pdd.pdf', type: 'projectDesign', name: 'Project design', isPublic: true }],
        },
      ],
    }),
    response: (s) => s.object({ id: z.string(), num: z.string(), changed: z.array(z.string()) }),
    auth: manager,
    tags: ['operator'],
    audit: 'projects.update',
    refusals: [
      refusals.repeatedId,
      refusals.noProject,
      refusals.noOrganization,
      refused(409, 'the project is not a draft (only drafts are edited)'),
      refusals.documentTaken,
    ],
  }),
  operatorSetProjectStatus: define({
    method: 'POST',
    path: '/operator/v1/projects/{projectId}/status',
    summary: 'Move a project to another status (allowed changes only)',
    params: z.object({ projectId: idString('projectId') }),
    query: noQuery,
    body: inputs.changeProjectStatusInput
      .omit({ projectId: true })
      .meta({ examples: [{ status: 'submitted', comment: 'Project design document complete' }] }),
    response: (s) => s.object({ id: z.string(), status: z.string(), previousStatus: z.string(), eventId: z.string() }),
    auth: manager,
    tags: ['operator'],
    audit: 'projects.setStatus',
    refusals: [
      refusals.noProject,
      refused(409, "the project's current status does not allow this change (the message lists the allowed ones)"),
    ],
  }),
} as const;
