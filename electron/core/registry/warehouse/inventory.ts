// What a warehouse can still hand out: its balance of each credit minus what reservations hold
// (holds.ts: active reservations and finished ones the worker has not processed yet).
import type { WarehouseInventoryCredit } from '@shared/registry/resources';
import { gramsToTonnes } from '@shared/registry/amounts';
import type { BoundRead } from '@platform/db/database';
import type { RegistryContext } from '../context';
import { sql } from 'kysely';
import { heldInWarehouse } from '../holds';
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

/** One credit of the warehouse (credit_id null: the account exists but holds nothing). */
interface WarehouseCreditRow {
  account_id: string;
  credit_id: string | null;
  amount: number;
  serialization: string;
  type: string;
  project_id: string;
  held: number;
}

/**
 * One entry per credit the warehouse holds (balance > 0), even when reservations hold all of it, so
 * a client can tell "all reserved" from "withdrawn": `amount` is what a new reservation may take now
 * (the contract's field, 0 when all is reserved), `held` the warehouse's balance and `reserved` what
 * reservations hold of it (`amount = held - reserved`). `inventoryId` is the warehouse account's id.
 *
 * One statement (the account, its balances and what reservations hold of each, with the holds
 * phrased as holds.ts phrases them for the partial index): on PostgreSQL each statement is a round
 * trip, and this read is the hottest one, so it makes one instead of three.
 */
export function warehouseInventory(ctx: RegistryContext, organizationId: string): WarehouseInventoryCredit[] {
  return presentInventory(ctx, organizationId, ctx.db.prepared(inventoryRows).all({ organizationId, now: ctx.clock.now() }));
}

/**
 * warehouseInventory's read for the HTTP endpoint, which sends it with the caller's token lookup
 * without holding the process while PostgreSQL answers (read-along.ts; SyncDatabase.allAsyncTogether);
 * presentInventory makes the answer of its rows.
 */
export function inventoryRead(ctx: RegistryContext, organizationId: string): BoundRead<WarehouseCreditRow> {
  return ctx.db.prepared(inventoryRows).withValues({ organizationId, now: ctx.clock.now() });
}

/** The statement, compiled once (compiling it cost about as much as running it on SQLite). */
const inventoryRows = (v: { organizationId: string; now: number }) =>
  sql<WarehouseCreditRow>`WITH held AS (
       SELECT credit_id, SUM(amount) AS held FROM reservations
       WHERE organization_id = ${v.organizationId} AND state IN ('pending', 'pending_queue')
         AND (state = 'pending_queue' OR reserved_to > ${v.now})
       GROUP BY credit_id)
     SELECT a.id AS account_id, b.credit_id, b.amount, c.serialization, c.type, c.project_id, COALESCE(h.held, 0) AS held
     FROM accounts a
     LEFT JOIN balances b ON b.account_id = a.id AND b.amount > 0
     LEFT JOIN credits c ON c.id = b.credit_id
     LEFT JOIN held h ON h.credit_id = b.credit_id
     WHERE a.organization_id = ${v.organizationId} AND a.kind = 'warehouse'
     ORDER BY c.serialization`;

export function presentInventory(ctx: RegistryContext, organizationId: string, rows: WarehouseCreditRow[]): WarehouseInventoryCredit[] {
  const credits: WarehouseInventoryCredit[] = [];
  for (const row of rows) {
    if (row.credit_id === null) continue;
    // never negative: a hold larger than the balance cannot happen (reserve checks it), but the
    // answer must not claim a negative amount if it ever did
    const reserved = Math.min(row.held, row.amount);
    credits.push({
      id: row.credit_id,
      inventoryId: row.account_id,
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
