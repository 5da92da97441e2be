// The operator interface: operator accounts and the audit log.
import { z } from 'zod';
import { operatorResources } from '../operator-resources';
import { AUDIT_OUTCOMES } from '../vocabulary';
import * as inputs from '../operator-inputs';
import {
  limitParam,
  noQuery,
  noParams,
  idString,
  define,
  EXAMPLE_PUBLIC_KEY_PEM,
  viewer,
  administrator,
  isoTime,
  cursorParam,
  nextCursor,
} from './define';
import { refusals, refused } from './refusals';

export const operatorOperatorEndpoints = {
  operatorListOperators: define({
    method: 'GET',
    path: '/operator/v1/operators',
    summary: 'Every operator account',
    params: noParams,
    query: noQuery,
    response: (s) => s.object({ operators: z.array(operatorResources(s).operator) }),
    auth: administrator,
    tags: ['operator'],
  }),
  operatorCreateOperator: define({
    method: 'POST',
    path: '/operator/v1/operators',
    summary: 'Create an operator account with its RSA public key',
    params: noParams,
    query: noQuery,
    body: inputs.createOperatorInput.meta({ examples: [{ name: 'Ada Admin', role: 'viewer', publicKeyPem: EXAMPLE_PUBLIC_KEY_PEM }] }),
    response: (s) => s.object({ operator: operatorResources(s).operator }),
    auth: administrator,
    tags: ['operator'],
    status: 201,
    audit: 'operators.create',
    refusals: [refusals.rsaKey, refusals.idTaken('operator')],
  }),
  operatorSetOperatorActive: define({
    method: 'POST',
    path: '/operator/v1/operators/{operatorId}/active',
    summary: 'Disable (its tokens stop at once) or enable an operator account',
    params: z.object({ operatorId: idString('operatorId') }),
    query: noQuery,
    body: inputs.setOperatorActiveInput.omit({ operatorId: true }).meta({ examples: [{ active: true }] }),
    response: (s) => s.object({ operator: operatorResources(s).operator }),
    auth: administrator,
    tags: ['operator'],
    audit: 'operators.setActive',
    refusals: [refusals.noOperator, refused(409, 'it would disable the last active administrator')],
  }),
  operatorSearchAudit: define({
    method: 'GET',
    path: '/operator/v1/audit',
    summary: 'The audit log, newest first, filtered by operator, action, target, outcome and time',
    params: noParams,
    query: z.object({
      limit: limitParam,
      cursor: cursorParam('the audit log (newest first: entries added since appear on a new first page)'),
      operatorId: z.string().trim().min(1).max(200).optional(),
      action: z.string().trim().min(1).max(100).optional(),
      targetId: z.string().trim().min(1).max(300).optional(),
      outcome: z.enum(AUDIT_OUTCOMES).optional(),
      from: isoTime.optional(),
      to: isoTime.optional(),
    }),
    response: (s) => s.object({ entries: z.array(operatorResources(s).auditEntry), nextCursor: nextCursor() }),
    auth: viewer,
    tags: ['operator'],
  }),
} as const;
