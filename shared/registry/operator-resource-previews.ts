// What a previewed write would do, before it is made: the credits it touches, its movements and
// every balance before and after. Amounts are exact whole grams.
import { z } from 'zod';
import type { ObjectFactory } from './resource-common';
import { grams, type LedgerResources } from './operator-resource-ledger';
import { PREVIEW_OPERATIONS } from './operator-previews';

/** The preview of a write; `ledger` gives the account view its movements name. */
export function previewResources(object: ObjectFactory, { accountView }: LedgerResources) {
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
  return { preview };
}
