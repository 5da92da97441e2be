// The reservation state machine of compatibility.md (Warehouse), in one place.
//
//   pending ──cancel──────────────▶ cancelled      (credits free at once)
//   pending ──reservedToDate──────▶ expired        (derived from the clock, no job needed)
//   pending ──finish──────────────▶ pending_queue  (still holds its credits)
//   pending_queue ──worker────────▶ processed      (credits moved, maybe retired)
//   pending_queue ──worker────────▶ failed         (nothing moved, credits free again)
//
// cancelled, expired, processed and failed are terminal. The database stores 'pending' until
// something else happens; a stored 'pending' whose reserved_to has passed *is* expired, and every
// reader goes through `effectiveState` so that availability and answers agree without waiting for
// the worker to persist the expiry.
import type { ReservationState } from '@shared/registry/vocabulary';

/** How long a reservation holds its credits (section 8). */
export const RESERVATION_LIFETIME_MS = 10 * 60 * 1000;

export const TERMINAL_RESERVATION_STATES: readonly ReservationState[] = ['cancelled', 'expired', 'processed', 'failed'];

export interface StoredReservationState {
  state: string;
  reserved_to: number;
  updated_at: number;
}

export function effectiveState(row: Pick<StoredReservationState, 'state' | 'reserved_to'>, now: number): ReservationState {
  if (row.state === 'pending' && row.reserved_to <= now) return 'expired';
  return row.state as ReservationState;
}

/** Active: may still be cancelled or finished. */
export function isActive(row: Pick<StoredReservationState, 'state' | 'reserved_to'>, now: number): boolean {
  return effectiveState(row, now) === 'pending';
}

/** A derived expiry happened at reserved_to, so that is when the record last changed. */
export function effectiveUpdatedAt(row: StoredReservationState, now: number): number {
  return row.state === 'pending' && row.reserved_to <= now ? row.reserved_to : row.updated_at;
}
