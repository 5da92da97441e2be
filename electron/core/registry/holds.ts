// What reservations hold in a warehouse. A pending reservation holds until its reservedToDate, read
// against the clock at every call, so expiry needs no background job; a finished one (pending_queue)
// holds until the worker has moved its credits.
//
// The queries repeat the partial index's `state IN (…)` so SQLite picks reservations_holding (an OR
// of the two states alone scans every reservation of the organization); since migration 0003 that
// index also carries the amount, so a sum reads the index only. The reserve hot path runs this on
// every request.
import { sql } from 'kysely';
import type { RegistryContext } from './context';

/** The holding reservations at `now`: literal states, so SQLite can prove the partial index applies. */
const holding = (now: number) => sql`state IN ('pending', 'pending_queue') AND (state = 'pending_queue' OR reserved_to > ${now})`;

export function heldInWarehouse(ctx: RegistryContext, organizationId: string, creditId: string): number {
  const row = ctx.db.first(
    sql<{ held: number }>`SELECT COALESCE(SUM(amount), 0) AS held FROM reservations
      WHERE organization_id = ${organizationId} AND credit_id = ${creditId} AND ${holding(ctx.clock.now())}`,
  );
  return row?.held ?? 0;
}
