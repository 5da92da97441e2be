// Reservation rows to the wire record 2.12.
import type { Reservation } from '@shared/registry/resources';
import { gramsToTonnes } from '@shared/registry/amounts';
import { iso } from '@platform/clock';
import type { RegistryContext } from '../context';
import type { RegistryTables } from '../schema';
import { projectReferenceOf } from '../present';
import { effectiveState, effectiveUpdatedAt } from './lifecycle';

/** A reservation with what its record shows of the credit and the reserving app. */
export type ReservationRow = RegistryTables['reservations'] &
  Pick<RegistryTables['credits'], 'token_id' | 'token_address' | 'type' | 'serialization' | 'project_id'> & { app_name: string };

export const RESERVATION_SELECT = `SELECT r.*, c.token_id, c.token_address, c.type, c.serialization, c.project_id, a.name AS app_name
  FROM reservations r JOIN credits c ON c.id = r.credit_id JOIN apps a ON a.id = r.app_id`;

export function presentReservation(ctx: RegistryContext, row: ReservationRow, now = ctx.clock.now()): Reservation {
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

export function findReservationRow(ctx: RegistryContext, organizationId: string, reservationId: string): ReservationRow | undefined {
  return ctx.db.prepare(`${RESERVATION_SELECT} WHERE r.id = ? AND r.organization_id = ?`).get(reservationId, organizationId) as
    ReservationRow | undefined;
}
