// The seed interface, retirements (4.2 and 4.3).
import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../vocabulary';
import { queryInt, optionalPageQuery, noQuery, noParams, idString, define, anyToken } from './define';
import { finalizeBody } from './bodies';

export const retirementEndpoints = {
  // 4.2 Retirements, v1
  listRetirementsV1: define({
    method: 'GET',
    path: '/v1/retirements',
    summary: 'Retirements, newest first',
    params: noParams,
    query: optionalPageQuery,
    response: (s) => s.object({ retirements: z.array(s.retirement), pagination: s.pagination }),
    auth: anyToken,
    tags: ['retirements'],
  }),
  getRetirementV1: define({
    method: 'GET',
    path: '/v1/retirements/{id}',
    summary: 'One retirement',
    params: z.object({ id: idString('id') }),
    query: noQuery,
    response: (s) => s.object({ retirement: s.retirement }),
    auth: anyToken,
    tags: ['retirements'],
  }),
  listEntityRetirementsV1: define({
    method: 'GET',
    path: '/v1/{id}/retirements',
    summary: 'Retirements of an entity: an organization, a project or a wallet address',
    params: z.object({ id: idString('id') }),
    query: noQuery,
    response: (s) => s.object({ retirements: z.array(s.retirement) }),
    auth: anyToken,
    tags: ['retirements'],
  }),

  // 4.3 Retirements, unversioned
  listRetirements: define({
    method: 'GET',
    path: '/retirements/list',
    summary: 'Retirements, newest first, by skip and first',
    params: noParams,
    query: z.object({
      skip: queryInt(0, 0, 'Retirements to skip, newest first').optional().default(0),
      first: queryInt(1, DEFAULT_PAGE_SIZE, `How many to answer; larger values are clamped to ${MAX_PAGE_SIZE}`)
        .transform((n) => Math.min(n, MAX_PAGE_SIZE))
        .optional()
        .default(DEFAULT_PAGE_SIZE),
    }),
    response: (s) => s.object({ retirements: z.array(s.retirement) }),
    auth: anyToken,
    tags: ['retirements'],
  }),
  getRetirement: define({
    method: 'GET',
    path: '/retirements',
    summary: 'One retirement by id (query parameter)',
    params: noParams,
    query: z.object({ id: idString('id') }),
    response: (s) => s.retirement,
    auth: anyToken,
    tags: ['retirements'],
  }),
  getRetirementPdf: define({
    method: 'GET',
    path: '/retirements/{retirementId}/pdf',
    summary: 'The retirement certificate as a PDF download',
    params: z.object({ retirementId: idString('retirementId') }),
    query: noQuery,
    response: () => z.instanceof(Uint8Array),
    responseType: 'pdf',
    auth: anyToken,
    tags: ['retirements'],
  }),
  finalizeRetirement: define({
    method: 'POST',
    path: '/retirements/finalize',
    summary: 'Claim an on-chain retirement with a wallet signature',
    params: noParams,
    query: noQuery,
    body: finalizeBody,
    response: (s) => s.retirement,
    auth: anyToken,
    tags: ['retirements'],
  }),
} as const;
