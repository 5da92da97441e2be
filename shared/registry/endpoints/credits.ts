// The seed interface, credits and inventories (4.4).
import { z } from 'zod';
import { noQuery, noParams, idString, define, anyToken } from './define';
import { inventoryResponse, projectCreditsResponse } from './responses';

export const creditEndpoints = {
  // 4.4 Credits
  getProjectCredits: define({
    method: 'GET',
    path: '/carbonCredits/projects/{id}',
    summary: 'Credit summary and issuance events of a project, by vintage',
    params: z.object({ id: idString('id') }),
    query: noQuery,
    response: (s) => projectCreditsResponse(s),
    auth: anyToken,
    tags: ['credits'],
  }),
  getBufferInventory: define({
    method: 'GET',
    path: '/carbonCredits/icr/inventory/buffer',
    summary: 'The registry buffer account',
    params: noParams,
    query: noQuery,
    response: (s) => inventoryResponse(s),
    auth: anyToken,
    tags: ['credits'],
  }),
  getAdjustmentInventory: define({
    method: 'GET',
    path: '/carbonCredits/icr/inventory/adjustment',
    summary: 'The registry adjustment account',
    params: noParams,
    query: noQuery,
    response: (s) => inventoryResponse(s),
    auth: anyToken,
    tags: ['credits'],
  }),
  getOrganizationInventory: define({
    method: 'GET',
    path: '/carbonCredits/icr/inventory/organization',
    summary: "The registry's own organization account",
    params: noParams,
    query: noQuery,
    response: (s) => inventoryResponse(s),
    auth: anyToken,
    tags: ['credits'],
  }),
} as const;
