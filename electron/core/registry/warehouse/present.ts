// Reservation rows to the wire record 2.12.
import type { Reservation } from '@shared/registry/resources';
import { gramsToTonnes } from '@shared/registry/amounts';
import { iso } from '@platform/clock';
import type { InferResult, Kysely } from 'kysely';
import type { RegistryContext } from '../context';
import type { RegistryTables } from '../schema';
import { projectReferenceOf } from '../present';
import { effectiveState, effectiveUpdatedAt } from './lifecycle';

type Q = Kysely<RegistryTables>;

/**
 * Reservations (`r`) with what their record shows of the credit (`c`) and the reserving app (`a`):
 * callers add the condition and order.
 */
export function selectReservations(q: Q) {
  return q
    .selectFrom('reservations as r')
    .innerJoin('credits as c', 'c.id', 'r.credit_id')
    .innerJoin('apps as a', 'a.id', 'r.app_id')
    .selectAll('r')
    .select(['c.token_id', 'c.token_address', 'c.type', 'c.serialization', 'c.project_id', 'a.name as app_name']);
}

/** A reservation as `selectReservations` reads it. */
export type SelectedReservation = InferResult<ReturnType<typeof selectReservations>>[number];

/** Compiled once per connection (SyncDatabase.prepared): every finish and cancel reads it. */
const reservationOf = (v: { id: string; organizationId: string }, q: Q) =>
  selectReservations(q).where('r.id', '=', v.id).where('r.organization_id', '=', v.organizationId);

export function presentReservation(ctx: RegistryContext, row: SelectedReservation, now = ctx.clock.now()): Reservation {
  return {
    id: row.id,
    creditId: row.credit_id,
    serialization: row.serialization,
    amount: gramsToTonnes(row.amount),
    createdAt: iso(row.created_at),
    state: effectiveState(row, now),
    retirementId: row.retirement_id,
    updatedAt: iso(effectiveUpdatedAt(row, now)),
    tokenId: String(row.token_id),
    tokenAddress: row.token_address,
    type: row.type,
    reservedToDate: iso(row.reserved_to),
    // true once the worker has dealt with the finish, whether it succeeded (processed) or not (failed)
    isComplete: row.is_complete === 1,
    project: projectReferenceOf(ctx, row.project_id),
    reserver: { id: row.app_id, name: row.app_name },
  };
}

export function findReservationRow(ctx: RegistryContext, organizationId: string, reservationId: string): SelectedReservation | undefined {
  return ctx.db.prepared(reservationOf).first({ id: reservationId, organizationId });
}
