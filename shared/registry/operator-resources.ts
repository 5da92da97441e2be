// The resources of the operator interface (/operator/v1/...): what the back office reads and what
// its writes answer. Built with the object factory of the resource schemas (strict for the server's
// tests, tolerant for clients), like every other resource. Amounts are exact whole grams.
import { z } from 'zod';
import { isoDateTime, type ResourceSchemas } from './resources';
import { PREVIEW_OPERATIONS } from './operator-previews';
import { AUDIT_OUTCOMES, OPERATOR_ROLES, PROJECT_STATUSES } from './vocabulary';

const grams = z.number().int();

export function operatorResources(s: ResourceSchemas) {
  const { object } = s;
  const operator = object({
    id: z.string(),
    name: z.string(),
    role: z.enum(OPERATOR_ROLES),
    active: z.boolean(),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  });
  const balance = object({ creditId: z.string(), serialization: z.string(), amountGrams: grams });
  const account = object({
    id: z.string(),
    kind: z.enum(['inventory', 'warehouse', 'buffer', 'adjustment', 'registry', 'wallet']),
    organizationId: z.string().nullable(),
    walletAddress: z.string().nullable(),
    balances: z.array(balance),
  });
  const installation = object({
    id: z.string(),
    appId: z.string(),
    appName: z.string(),
    organizationId: z.string(),
    status: z.enum(['active', 'suspended']),
    permissions: z.record(z.string(), z.string()),
    createdAt: isoDateTime,
  });
  const projectSummary = object({ id: z.string(), num: z.string(), fullName: z.string(), status: z.enum(PROJECT_STATUSES) });
  const organization = object({
    id: z.string(),
    fullName: z.string(),
    type: z.string(),
    countryCode: z.string(),
    city: z.string(),
    zip: z.string(),
    physicalAddress: z.string(),
    registrationNumber: z.string(),
    website: z.string(),
    logo: z.string(),
    organizationIndustries: object({ code: z.string(), name: z.string() }),
    isPublic: z.boolean(),
    isVerified: z.boolean(),
    isRegistry: z.boolean(),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
    accounts: z.array(account),
    projects: z.array(projectSummary),
    installations: z.array(installation),
  });
  const projectEvent = object({
    id: z.string(),
    type: z.string(),
    createdAt: isoDateTime,
    projectStatus: z.string(),
    previousProjectStatus: z.string(),
    /** The operator's comment on the change ('' for changes recorded without one). */
    comment: z.string(),
  });
  const project = object({
    id: z.string(),
    num: z.string(),
    fullName: z.string(),
    status: z.enum(PROJECT_STATUSES),
    organizationId: z.string(),
    countryCode: z.string().nullable(),
    contractAddress: z.string(),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
    history: z.array(projectEvent),
  });
  const movement = object({
    id: z.number().int(),
    at: isoDateTime,
    kind: z.string(),
    fromAccountId: z.string().nullable(),
    toAccountId: z.string().nullable(),
    amountGrams: grams,
    reference: z.string().nullable(),
  });
  const creditHistory = object({
    credit: object({ id: z.string(), serialization: z.string(), projectId: z.string(), vintage: z.string(), type: z.string() }),
    movements: z.array(movement),
  });
  const app = object({
    id: z.string(),
    name: z.string(),
    nameId: z.string(),
    examinerRead: z.boolean(),
    createdAt: isoDateTime,
    installations: z.array(installation),
  });
  const auditEntry = object({
    id: z.string(),
    at: isoDateTime,
    operatorId: z.string().nullable(),
    actor: z.string(),
    action: z.string(),
    targetIds: z.array(z.string()),
    outcome: z.enum(AUDIT_OUTCOMES),
    detail: z.record(z.string(), z.unknown()),
  });
  const operatorToken = object({ token: z.string(), expiresAt: isoDateTime });
  /** An account as the back office names it; `id` is null for one the previewed write would open. */
  const accountView = object({
    id: z.string().nullable(),
    kind: z.enum(['inventory', 'warehouse', 'buffer', 'adjustment', 'registry', 'wallet']),
    organizationId: z.string().nullable(),
    organizationName: z.string().nullable(),
    walletAddress: z.string().nullable(),
  });
  const preview = object({
    operation: z.enum(PREVIEW_OPERATIONS),
    amountGrams: grams,
    /** The credits (serializations) the write touches; `isNew` when it would create the credit. */
    credits: z.array(
      object({
        creditId: z.string(),
        serialization: z.string(),
        projectId: z.string(),
        vintage: z.string(),
        type: z.string(),
        isNew: z.boolean(),
      }),
    ),
    /** An issuance's share to the buffer account (0 for the other writes). */
    toBufferGrams: grams,
    bufferBasisPoints: z.number().int().nullable(),
    movements: z.array(
      object({ kind: z.string(), creditId: z.string(), from: accountView.nullable(), to: accountView.nullable(), amountGrams: grams }),
    ),
    /** Every (account, credit) the write changes, before → after. */
    balances: z.array(
      object({ account: accountView, creditId: z.string(), serialization: z.string(), beforeGrams: grams, afterGrams: grams }),
    ),
  });
  const trailAudit = object({
    id: z.string(),
    at: isoDateTime,
    operatorId: z.string().nullable(),
    operatorName: z.string().nullable(),
    actor: z.string(),
    action: z.string(),
    outcome: z.enum(AUDIT_OUTCOMES),
  });
  const creditTrail = object({
    credit: object({
      id: z.string(),
      serialization: z.string(),
      projectId: z.string(),
      projectNum: z.string(),
      projectName: z.string(),
      organizationId: z.string(),
      vintage: z.string(),
      type: z.string(),
    }),
    /** Oldest first, one page; each with the audit entry of the write that made it (null when none did). */
    movements: z.array(
      object({
        id: z.number().int(),
        at: isoDateTime,
        kind: z.string(),
        amountGrams: grams,
        from: accountView.nullable(),
        to: accountView.nullable(),
        reference: z.string().nullable(),
        reason: z.string().nullable(),
        audit: trailAudit.nullable(),
      }),
    ),
    nextCursor: z
      .string()
      .nullable()
      .meta({ description: 'The cursor of the next page (pass it back unchanged as cursor); null on the last page' }),
  });
  const movementResult = object({ movementId: z.number().int() });
  return {
    operator,
    account,
    organization,
    project,
    creditHistory,
    app,
    installation,
    auditEntry,
    operatorToken,
    movementResult,
    accountView,
    preview,
    creditTrail,
  };
}
