// What reservations hold in a warehouse. A pending reservation holds until its reservedToDate, read
// against the clock at every call, so expiry needs no background job; a finished one (pending_queue)
// holds until the worker has moved its credits.
import type { RegistryContext } from './context';

export function heldInWarehouse(ctx: RegistryContext, organizationId: string, creditId: string): number {
  const row = ctx.db
    .prepare(
      `SELECT COALESCE(SUM(amount), 0) AS held FROM reservations
       WHERE organization_id = ? AND credit_id = ?
         AND ((state = 'pending' AND reserved_to > ?) OR state = 'pending_queue')`,
    )
    .get(organizationId, creditId, ctx.clock.now()) as { held: number };
  return row.held;
}

/** Held amounts per credit for a whole warehouse. */
export function heldByCredit(ctx: RegistryContext, organizationId: string): Map<string, number> {
  const rows = ctx.db
    .prepare(
      `SELECT credit_id, SUM(amount) AS held FROM reservations
       WHERE organization_id = ? AND ((state = 'pending' AND reserved_to > ?) OR state = 'pending_queue')
       GROUP BY credit_id`,
    )
    .all(organizationId, ctx.clock.now()) as { credit_id: string; held: number }[];
  return new Map(rows.map((r) => [r.credit_id, r.held]));
}
