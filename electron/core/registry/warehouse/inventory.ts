// What a warehouse can still hand out: its balance of each credit minus what reservations hold
// (holds.ts: active reservations and finished ones the worker has not processed yet).
import type { WarehouseInventoryCredit } from '../../../../shared/registry/resources';
import { gramsToTonnes } from '../../../../shared/registry/amounts';
import type { RegistryContext } from '../context';
import { heldByCredit, heldInWarehouse } from '../holds';
import { balanceOf, findAccountId } from '../ledger';
import { projectReferenceOf } from '../present';

export function warehouseAccountOf(ctx: RegistryContext, organizationId: string): string | undefined {
  return findAccountId(ctx, { kind: 'warehouse', organizationId });
}

/** Grams of one credit that a new reservation may take now. */
export function availableInWarehouse(ctx: RegistryContext, organizationId: string, creditId: string): number {
  const account = warehouseAccountOf(ctx, organizationId);
  if (!account) return 0;
  return balanceOf(ctx, account, creditId) - heldInWarehouse(ctx, organizationId, creditId);
}

/**
 * One entry per credit the warehouse holds (balance > 0), even when reservations hold all of it, so
 * a client can tell "all reserved" from "withdrawn": `amount` is what a new reservation may take now
 * (the contract's field, 0 when all is reserved), `held` the warehouse's balance and `reserved` what
 * reservations hold of it (`amount = held - reserved`). `inventoryId` is the warehouse account's id.
 */
export function warehouseInventory(ctx: RegistryContext, organizationId: string): WarehouseInventoryCredit[] {
  const account = warehouseAccountOf(ctx, organizationId);
  if (!account) return [];
  const { db } = ctx;
  const rows = db.all(
    db.q
      .selectFrom('balances as b')
      .innerJoin('credits as c', 'c.id', 'b.credit_id')
      .select(['b.credit_id', 'b.amount', 'c.serialization', 'c.type', 'c.project_id'])
      .where('b.account_id', '=', account)
      .where('b.amount', '>', 0)
      .orderBy('c.serialization'),
  );
  const held = heldByCredit(ctx, organizationId);
  const credits: WarehouseInventoryCredit[] = [];
  for (const row of rows) {
    // never negative: a hold larger than the balance cannot happen (reserve checks it), but the
    // answer must not claim a negative amount if it ever did
    const reserved = Math.min(held.get(row.credit_id) ?? 0, row.amount);
    credits.push({
      id: row.credit_id,
      inventoryId: account,
      organizationId,
      project: projectReferenceOf(ctx, row.project_id),
      serialization: row.serialization,
      amount: gramsToTonnes(row.amount - reserved),
      held: gramsToTonnes(row.amount),
      reserved: gramsToTonnes(reserved),
      type: row.type,
    });
  }
  return credits;
}
