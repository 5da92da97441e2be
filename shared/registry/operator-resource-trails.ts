// A credit's trail: its movements, one page at a time, each with the audit entry of the write that
// made it. Amounts are exact whole grams.
import { z } from 'zod';
import { isoDateTime, type ObjectFactory } from './resource-common';
import { grams, type LedgerResources } from './operator-resource-ledger';
import { AUDIT_OUTCOMES } from './vocabulary';

/** A credit's trail; `ledger` gives the account view its movements name. */
export function trailResources(object: ObjectFactory, { accountView }: LedgerResources) {
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
  return { creditTrail };
}
