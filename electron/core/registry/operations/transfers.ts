// Moving credits between accounts: into and out of an organization's warehouse, between any two
// other accounts (adjustment, registry, wallets), and out of circulation by cancellation.
//
// Every operation validates its whole input first (a clear error, nothing changed) and makes its
// changes in one transaction; its input schema is in shared/registry/operator-inputs.ts (the CLI and the
// operator endpoints are built from it).
import { z } from 'zod';
import type { RegistryContext } from '../context';
import { badRequest, conflict } from '../errors';
import { heldInWarehouse } from '../holds';
import { grams, parseInput } from '../input';
import { accountId, appendMovement, balanceOf, type AccountRef } from '../ledger';
import { formatTonnesForPeople } from '@shared/registry/amounts';
import { accountWords, idsOf } from './refusal-words';
import { requireCredit, requireOrganization } from './lookups';
import { warehouseMoveInput, transferCreditsInput, cancelCreditsInput } from '@shared/registry/operator-inputs';
export { warehouseMoveInput, transferCreditsInput, cancelCreditsInput };

export function depositToWarehouse(ctx: RegistryContext, input: z.input<typeof warehouseMoveInput>): { movementId: number } {
  const o = parseInput(warehouseMoveInput, input);
  const amount = grams(o.amount);
  return ctx.db.transaction(() => {
    requireOrganization(ctx, o.organizationId);
    const credit = requireCredit(ctx, o.creditId);
    const inventory = { kind: 'inventory', organizationId: o.organizationId } as const;
    const from = accountId(ctx, inventory);
    requireHeld(ctx, inventory, from, credit, amount);
    const movementId = appendMovement(ctx, {
      creditId: o.creditId,
      kind: 'deposit',
      from,
      to: accountId(ctx, { kind: 'warehouse', organizationId: o.organizationId }),
      amount,
    });
    return { movementId };
  });
}

export function withdrawFromWarehouse(ctx: RegistryContext, input: z.input<typeof warehouseMoveInput>): { movementId: number } {
  const o = parseInput(warehouseMoveInput, input);
  const amount = grams(o.amount);
  return ctx.db.transaction(() => {
    requireOrganization(ctx, o.organizationId);
    const credit = requireCredit(ctx, o.creditId);
    const warehouse = accountId(ctx, { kind: 'warehouse', organizationId: o.organizationId });
    const free = balanceOf(ctx, warehouse, o.creditId) - heldInWarehouse(ctx, o.organizationId, o.creditId);
    if (amount > free) {
      const where = accountWords(ctx, { kind: 'warehouse', organizationId: o.organizationId });
      throw conflict(
        `amount: only ${formatTonnesForPeople(free)} t of ${credit.serialization} is free in ${where} (the rest is reserved ` +
          `or absent)${idsOf(o)}`,
      );
    }
    const movementId = appendMovement(ctx, {
      creditId: o.creditId,
      kind: 'withdraw',
      from: warehouse,
      to: accountId(ctx, { kind: 'inventory', organizationId: o.organizationId }),
      amount,
    });
    return { movementId };
  });
}

/** A 409 naming the account and the credit when the account holds less of it than `amount` grams. */
function requireHeld(
  ctx: RegistryContext,
  ref: AccountRef,
  account: string,
  credit: { id: string; serialization: string },
  amount: number,
) {
  const held = balanceOf(ctx, account, credit.id);
  if (held >= amount) return;
  throw conflict(
    `amount: not enough credits of ${credit.serialization} in ${accountWords(ctx, ref)}, which holds ` +
      `${formatTonnesForPeople(held)} t of them${idsOf(ref)}`,
  );
}

type AccountRefInput = z.output<typeof transferCreditsInput>['from'];

/** Whether two references name one account: a wallet's address in any letter case is one wallet. */
function sameAccount(a: AccountRefInput, b: AccountRefInput): boolean {
  const key = (r: AccountRefInput) =>
    r.kind === 'wallet' ? `wallet:${r.address.toLowerCase()}` : 'organizationId' in r ? `${r.kind}:${r.organizationId}` : r.kind;
  return key(a) === key(b);
}

/** Moves credits between any two accounts (e.g. into the adjustment account, or to a wallet on chain). */
export function transferCredits(ctx: RegistryContext, input: z.input<typeof transferCreditsInput>): { movementId: number } {
  const o = parseInput(transferCreditsInput, input);
  const amount = grams(o.amount);
  if (sameAccount(o.from, o.to)) throw badRequest('from and to must be different accounts');
  if (o.from.kind === 'warehouse' || o.to.kind === 'warehouse') {
    throw badRequest('use deposit-to-warehouse / withdraw-from-warehouse for warehouse accounts');
  }
  return ctx.db.transaction(() => {
    const credit = requireCredit(ctx, o.creditId);
    const from = accountId(ctx, o.from);
    const to = accountId(ctx, o.to);
    requireHeld(ctx, o.from, from, credit, amount);
    return { movementId: appendMovement(ctx, { creditId: o.creditId, kind: 'transfer', from, to, amount }) };
  });
}

export function cancelCredits(ctx: RegistryContext, input: z.input<typeof cancelCreditsInput>): { movementId: number } {
  const o = parseInput(cancelCreditsInput, input);
  const amount = grams(o.amount);
  if (o.from.kind === 'warehouse') throw badRequest('withdraw credits from the warehouse before cancelling them');
  return ctx.db.transaction(() => {
    const credit = requireCredit(ctx, o.creditId);
    const from = accountId(ctx, o.from);
    requireHeld(ctx, o.from, from, credit, amount);
    const movementId = appendMovement(ctx, { creditId: o.creditId, kind: 'cancel', from, amount });
    // Kept beside the movement (migration 7).
    ctx.db.run(ctx.db.q.insertInto('cancellation_reasons').values({ movement_id: movementId, reason: o.reason }));
    return { movementId };
  });
}
