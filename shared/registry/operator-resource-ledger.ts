// The ledger as the operator interface shows it: accounts with their balances, an account as the
// back office names it, the movements between accounts, and a credit's history of them. Amounts
// are exact whole grams.
import { z } from 'zod';
import { isoDateTime, type ObjectFactory } from './resource-common';

export const grams = z.number().int();

/** The kinds of ledger account, as accounts and account views name them. */
const accountKind = z.enum(['inventory', 'warehouse', 'buffer', 'adjustment', 'registry', 'wallet']);

/** Accounts, account views, movements and a credit's history. */
export function ledgerResources(object: ObjectFactory) {
  const balance = object({ creditId: z.string(), serialization: z.string(), amountGrams: grams });
  const account = object({
    id: z.string(),
    kind: accountKind,
    organizationId: z.string().nullable(),
    walletAddress: z.string().nullable(),
    balances: z.array(balance),
  });
  /** An account as the back office names it; `id` is null for one the previewed write would open. */
  const accountView = object({
    id: z.string().nullable(),
    kind: accountKind,
    organizationId: z.string().nullable(),
    organizationName: z.string().nullable(),
    walletAddress: z.string().nullable(),
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
  const movementResult = object({ movementId: z.number().int() });
  return { account, accountView, creditHistory, movementResult };
}

export type LedgerResources = ReturnType<typeof ledgerResources>;
