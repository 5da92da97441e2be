// Reserving, reading and cancelling warehouse reservations (4.5). Each change is one synchronous
// IMMEDIATE transaction: the availability check and the insert cannot interleave with another
// request, so concurrent reservations never take more than the warehouse holds. On PostgreSQL
// (several processes) a reservation locks its credit's warehouse balance row before the check
// instead (see reserveCredits).
import { z } from 'zod';
import type { Reservation } from '@shared/registry/resources';
import { formatTonnes, gramsToTonnes } from '@shared/registry/amounts';
import { reserveBody } from '@shared/registry/endpoints';
import type { RegistryContext } from '../context';
import { badRequest, conflict, notFound } from '../errors';
import { grams, parseInput } from '../input';
import { availableInWarehouse } from './inventory';
import { effectiveState, isActive, RESERVATION_LIFETIME_MS } from './lifecycle';
import { findReservationRow, presentReservation, RESERVATION_SELECT, type ReservationRow } from './present';

export const reserveInput = reserveBody.extend({
  organizationId: z.string().min(1),
  /** The app that reserves: the record's `reserver`. */
  appId: z.string().min(1),
});

export interface ReserveAnswer {
  id: string;
  creditId: string;
  serialization: string;
  amount: number;
}

export function reserveCredits(ctx: RegistryContext, input: z.input<typeof reserveInput>): ReserveAnswer {
  const o = parseInput(reserveInput, input);
  const amount = grams(o.amount);
  if (amount <= 0) throw badRequest('amount: must be at least 1 gram (0.000001 t)');
  return ctx.db.transaction(
    () => {
      const credit = ctx.db.prepare('SELECT id, serialization FROM credits WHERE id = ?').get(o.creditId) as
        { id: string; serialization: string } | undefined;
      if (!credit) throw notFound(`Credit ${o.creditId} not found`);
      if (ctx.db.lockRows) {
        ctx.db
          .prepare(
            `SELECT amount FROM balances WHERE credit_id = ?
           AND account_id = (SELECT id FROM accounts WHERE kind = 'warehouse' AND organization_id = ?)${ctx.db.lockRows}`,
          )
          .all(credit.id, o.organizationId);
      }
      // a known credit that this warehouse does not hold (or no longer has free) is a 409 with the figure
      const available = availableInWarehouse(ctx, o.organizationId, credit.id);
      if (amount > available) {
        throw conflict(
          `Not enough credits: ${formatTonnes(Math.max(available, 0))} t of ${credit.id} available in the warehouse, ${formatTonnes(amount)} t requested`,
        );
      }
      const id = ctx.newId();
      const now = ctx.clock.now();
      ctx.db
        .prepare(
          `INSERT INTO reservations (id, organization_id, credit_id, amount, app_id, created_at, reserved_to, state, is_complete,
           retirement_id, transaction_id, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', 0, NULL, NULL, ?)`,
        )
        .run(id, o.organizationId, credit.id, amount, o.appId, now, now + RESERVATION_LIFETIME_MS, now);
      return { id, creditId: credit.id, serialization: credit.serialization, amount: gramsToTonnes(amount) };
      // PostgreSQL: READ COMMITTED behind the balance row's lock, not SERIALIZABLE: reservations of one
      // credit queue on the lock instead of failing at commit and running again, and reservations of
      // different credits no longer fail on SERIALIZABLE's index-page conflicts (with two processes,
      // more per second: bench/README.md, postgres). What else lowers the availability checked here
      // stays SERIALIZABLE and is caught another way: a withdrawal (the only other) moves the balance
      // and so also stamps the warehouse's feed key (migration 6's balances trigger), which this
      // reservation's insert stamps too, so a withdrawal that read the holds before this committed
      // fails to write that key and runs again (test/unit/registry/postgres-row-locks.test.ts).
    },
    { rowLocks: true },
  );
}

export function getReservation(ctx: RegistryContext, organizationId: string, reservationId: string): Reservation {
  const row = findReservationRow(ctx, organizationId, reservationId);
  if (!row) throw notFound(`Reservation ${reservationId} not found`);
  return presentReservation(ctx, row);
}

export function countReservations(ctx: RegistryContext, organizationId: string): number {
  return (ctx.db.prepare('SELECT COUNT(*) AS n FROM reservations WHERE organization_id = ?').get(organizationId) as { n: number }).n;
}

/** A window of the organization's reservations (active, expired, finished), newest first. */
export function listReservations(ctx: RegistryContext, organizationId: string, window: { offset: number; limit: number }): Reservation[] {
  const rows = ctx.db
    .prepare(`${RESERVATION_SELECT} WHERE r.organization_id = ? ORDER BY r.created_at DESC, r.id DESC LIMIT ? OFFSET ?`)
    .all(organizationId, window.limit, window.offset) as ReservationRow[];
  const now = ctx.clock.now();
  return rows.map((row) => presentReservation(ctx, row, now));
}

/** Cancels an active reservation; its credits are available again at once. */
export function cancelReservation(ctx: RegistryContext, organizationId: string, reservationId: string): Reservation {
  return ctx.db.transaction(() => {
    const row = findReservationRow(ctx, organizationId, reservationId);
    if (!row) throw notFound(`Reservation ${reservationId} not found`);
    const now = ctx.clock.now();
    if (!isActive(row, now)) {
      throw conflict(`Reservation ${reservationId} is ${effectiveState(row, now)}; only an active (pending) reservation can be cancelled`);
    }
    ctx.db.prepare(`UPDATE reservations SET state = 'cancelled', updated_at = ? WHERE id = ?`).run(now, reservationId);
    return presentReservation(ctx, { ...row, state: 'cancelled', updated_at: now }, now);
  });
}

/** Stores 'expired' for lapsed reservations. Housekeeping only: readers derive expiry themselves. */
export function persistExpiredReservations(ctx: RegistryContext): number {
  return ctx.db
    .prepare(`UPDATE reservations SET state = 'expired', updated_at = reserved_to WHERE state = 'pending' AND reserved_to <= ?`)
    .run(ctx.clock.now()).changes;
}
