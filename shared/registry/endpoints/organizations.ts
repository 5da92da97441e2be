// The seed interface, organizations (4.7).
import { z } from 'zod';
import { noQuery, idString, define, anyToken } from './define';

export const organizationEndpoints = {
  // 4.7 Organizations
  getOrganizationV1: define({
    method: 'GET',
    path: '/v1/organizations/{id}',
    summary: 'An organization record',
    params: z.object({ id: idString('id') }),
    query: noQuery,
    response: (s) => s.object({ organization: s.organization }),
    auth: anyToken,
    tags: ['organizations'],
  }),
} as const;
