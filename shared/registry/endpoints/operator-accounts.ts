// The operator interface: accounts, credit history and trail, previews.
import { z } from 'zod';
import { PREVIEW_OPERATIONS, previewQueries, previewQuery } from '../operator-previews';
import { operatorResources } from '../operator-resources';
import { limitParam, pageQuery, noParams, EXAMPLE_CREDIT_ID, idString, define, viewer, manager, cursorParam } from './define';

export const operatorAccountEndpoints = {
  operatorListAccounts: define({
    method: 'GET',
    path: '/operator/v1/accounts',
    summary: 'Every account with its balances',
    params: noParams,
    query: pageQuery,
    response: (s) => s.object({ pagination: s.pagination, accounts: z.array(operatorResources(s).account) }),
    auth: viewer,
    tags: ['operator'],
  }),
  operatorCreditHistory: define({
    method: 'GET',
    path: '/operator/v1/ledger',
    summary: 'The ledger history of one credit, by credit id or serialization, oldest first',
    params: noParams,
    query: z
      .object({
        creditId: idString('creditId', EXAMPLE_CREDIT_ID).optional(),
        serialization: idString('serialization', 'RDR-KEN-1-1-1-P-1-2021').optional(),
      })
      .refine((q) => q.serialization !== undefined || q.creditId !== undefined, { message: 'serialization or creditId is required' })
      .meta({ anyOf: [{ required: ['serialization'] }, { required: ['creditId'] }] }),
    response: (s) => operatorResources(s).creditHistory,
    auth: viewer,
    tags: ['operator'],
  }),
  operatorCreditTrail: define({
    method: 'GET',
    path: '/operator/v1/ledger/trail',
    summary:
      'Where the tonnes of one credit went: every ledger movement from issuance to now, oldest first, each with the audit entry that made it',
    params: noParams,
    query: z
      .object({
        creditId: idString('creditId', EXAMPLE_CREDIT_ID).optional(),
        serialization: idString('serialization', 'RDR-KEN-1-1-1-P-1-2021').optional(),
        limit: limitParam,
        cursor: cursorParam("this credit's trail (oldest first: movements made since appear on later pages)"),
      })
      .refine((q) => q.serialization !== undefined || q.creditId !== undefined, { message: 'serialization or creditId is required' })
      .meta({ anyOf: [{ required: ['serialization'] }, { required: ['creditId'] }] }),
    response: (s) => operatorResources(s).creditTrail,
    auth: viewer,
    tags: ['operator'],
  }),
  operatorPreview: define({
    method: 'GET',
    path: '/operator/v1/previews/{operation}',
    summary:
      "A dry run of a ledger write (the write's body as query fields, accounts as kind:id): what it would create and every balance before → after; nothing is written (one audit entry, as for every write attempt)",
    description:
      "A refusal is the write's own: the status and message the write would answer to the same fields (see its refusals). The query's fields are those of the write's body; another operation's are ignored.",
    params: z.object({ operation: z.enum(PREVIEW_OPERATIONS) }),
    query: previewQuery,
    queryByParam: { param: 'operation', queries: previewQueries },
    response: (s) => operatorResources(s).preview,
    auth: manager,
    tags: ['operator'],
  }),
} as const;
