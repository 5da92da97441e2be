// What a reservation is doing now, from its record and the registry's clock. The registry may not
// have run its expiry job yet, so a reservation past reservedToDate is shown expired regardless
// (compatibility.md: "active" is !isComplete && reservedToDate > now).
import type { Reservation } from '@shared/registry/resources';

export type ReservationPhase = 'active' | 'expired' | 'processing' | 'processed' | 'failed' | 'cancelled';

export const PHASE_LABELS: Record<ReservationPhase, string> = {
  active: 'Active',
  expired: 'Expired',
  processing: 'Processing',
  processed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

export function reservationPhase(r: Pick<Reservation, 'state' | 'isComplete' | 'reservedToDate'>, registryNow: number): ReservationPhase {
  if (r.state === 'cancelled') return 'cancelled';
  if (r.state === 'failed') return 'failed';
  if (r.isComplete || r.state === 'processed') return 'processed';
  if (r.state === 'pending_queue') return 'processing';
  if (r.state === 'expired') return 'expired';
  return Date.parse(r.reservedToDate) > registryNow ? 'active' : 'expired';
}

/** The registry's "now" as this computer sees it: its own clock corrected by the measured offset. */
export function registryNow(clockOffsetMs: number, now = Date.now()): number {
  return now + clockOffsetMs;
}
