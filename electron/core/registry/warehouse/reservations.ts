// Reserving, reading and cancelling warehouse reservations (4.5). Each change is one synchronous
// IMMEDIATE transaction: the availability check and the insert cannot interleave with another
// request, so concurrent reservations never take more than the warehouse holds. On PostgreSQL
// (several processes) a reservation locks its credit's warehouse balance row before the check
// instead (see reserveCredits).
import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import type { Reservation } from '@shared/registry/resources';
import { formatTonnes, gramsToTonnes } from '@shared/registry/amounts';
import { reserveBody } from '@shared/registry/endpoints';
import type { RegistryContext } from '../context';
import { badRequest, conflict, notFound } from '../errors';
import { grams, parseInput } from '../input';
import type { AccountKind, RegistryTables } from '../schema';
import { availableInWarehouse } from './inventory';
import { effectiveState, isActive, RESERVATION_LIFETIME_MS } from './lifecycle';
import { findReservationRow, presentReservation, selectReservations } from './present';

// The statements, compiled once per connection (SyncDatabase.prepared): reserving is the hot path.
type Q = Kysely<RegistryTables>;
const creditOf = (v: { id: string }, q: Q) => q.selectFrom('credits').select(['id', 'serialization']).where('id', '=', v.id);
/**
 * Locks the credit's balance in the organization's warehouse until the transaction ends. Run only
 * where the engine locks rows (`lockRows`: FOR UPDATE on PostgreSQL; SQLite's write transaction
 * already excludes every other).
 */
const lockWarehouseBalance = (v: { creditId: string; organizationId: string }, q: Q) =>
  q
    .selectFrom('balances')
    .select('amount')
    .where('credit_id', '=', v.creditId)
    .where('account_id', '=', (eb) =>
      eb
        .selectFrom('accounts')
        .select('id')
        .where('kind', '=', sql.lit<AccountKind>('warehouse'))
        .where('organization_id', '=', v.organizationId),
    )
    .forUpdate();
const insertReservation = (
  v: { id: string; organizationId: string; creditId: string; amount: number; appId: string; now: number; reservedTo: number },
  q: Q,
) =>
  q.insertInto('reservations').values({
    id: v.id,
    organization_id: v.organizationId,
    credit_id: v.creditId,
    amount: v.amount,
    app_id: v.appId,
    created_at: v.now,
    reserved_to: v.reservedTo,
    state: 'pending',
    is_complete: 0,
    retirement_id: null,
    transaction_id: null,
    updated_at: v.now,
  });
const reservationCount = (v: { organizationId: string }, q: Q) =>
  q
    .selectFrom('reservations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organization_id', '=', v.organizationId);
/** A window of the organization's reservations, newest first. */
const reservationPage = (v: { organizationId: string; limit: number; offset: number }, q: Q) =>
  selectReservations(q)
    .where('r.organization_id', '=', v.organizationId)
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id', 'desc')
    .limit(v.limit)
    .offset(v.offset);
const cancel = (v: { id: string; now: number }, q: Q) =>
  q.updateTable('reservations').set({ state: 'cancelled', updated_at: v.now }).where('id', '=', v.id);
const storeExpiries = (v: { now: number }, q: Q) =>
  q
    .updateTable('reservations')
    .set((eb) => ({ state: 'expired', updated_at: eb.ref('reserved_to') }))
    .where('state', '=', sql.lit('pending'))
    .where('reserved_to', '<=', v.now);

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
      const credit = ctx.db.prepared(creditOf).first({ id: o.creditId });
      if (!credit) throw notFound(`Credit ${o.creditId} not found`);
      if (ctx.db.lockRows) ctx.db.prepared(lockWarehouseBalance).all({ creditId: credit.id, organizationId: o.organizationId });
      // a known credit that this warehouse does not hold (or no longer has free) is a 409 with the figure
      const available = availableInWarehouse(ctx, o.organizationId, credit.id);
      if (amount > available) {
        throw conflict(
          `Not enough credits: ${formatTonnes(Math.max(available, 0))} t of ${credit.id} available in the warehouse, ${formatTonnes(amount)} t requested`,
        );
      }
      const id = ctx.newId();
      const now = ctx.clock.now();
      ctx.db.prepared(insertReservation).run({
        id,
        organizationId: o.organizationId,
        creditId: credit.id,
        amount,
        appId: o.appId,
        now,
        reservedTo: now + RESERVATION_LIFETIME_MS,
      });
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
  return ctx.db.prepared(reservationCount).first({ organizationId })?.n ?? 0;
}

/** A window of the organization's reservations (active, expired, finished), newest first. */
export function listReservations(ctx: RegistryContext, organizationId: string, window: { offset: number; limit: number }): Reservation[] {
  const rows = ctx.db.prepared(reservationPage).all({ organizationId, limit: window.limit, offset: window.offset });
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
    ctx.db.prepared(cancel).run({ id: reservationId, now });
    return presentReservation(ctx, { ...row, state: 'cancelled', updated_at: now }, now);
  });
}

/** Stores 'expired' for lapsed reservations. Housekeeping only: readers derive expiry themselves. */
export function persistExpiredReservations(ctx: RegistryContext): number {
  return ctx.db.prepared(storeExpiries).run({ now: ctx.clock.now() }).changes;
}
