// The warehouse invariants test's world (a registry with its organizations and credits), the small
// model that predicts what each operation must do, and the check of the books after every step.
import { expect } from 'vitest';
import { ManualClock } from '@platform/clock';
import type { OpenedRegistry } from '@registry/open';
import { RegistryError } from '@registry/errors';
import { heldInWarehouse } from '@registry/holds';
import { availableInWarehouse } from '@registry/warehouse/inventory';
import { TERMINAL_RESERVATION_STATES } from '@registry/warehouse/lifecycle';
import { getReservation } from '@registry/warehouse/reservations';
import { RESERVATION_STATES, type ReservationState } from '@shared/registry/vocabulary';
import { inventoryBalance, registrySnapshot, warehouseBalance } from '@test/support/warehouse';

export interface World {
  ctx: OpenedRegistry;
  clock: ManualClock;
  orgs: string[]; // warehouse owners and receivers; the last one is unverified
  credits: string[];
  appId: string;
  close(): void;
}

// ---- the model -------------------------------------------------------------------------------------

export interface ModelReservation {
  id: string;
  org: string;
  credit: string;
  grams: number;
  reservedTo: number;
  stored: 'pending' | 'cancelled' | 'pending_queue' | 'processed';
  retire: boolean;
  receiver: string;
}

export interface Model {
  now: number;
  reservations: ModelReservation[];
  /** grams per `${org}|${credit}` */
  warehouse: Map<string, number>;
  inventory: Map<string, number>;
  /** last state read for each reservation, to prove terminal states never change */
  seen: Map<string, ReservationState>;
}

export const key = (org: string, credit: string) => `${org}|${credit}`;
export const expectedState = (m: Model, r: ModelReservation): ReservationState =>
  r.stored === 'pending' && r.reservedTo <= m.now ? 'expired' : r.stored;
export function modelHeld(m: Model, org: string, credit: string): number {
  return m.reservations
    .filter(
      (r) => r.org === org && r.credit === credit && (r.stored === 'pending_queue' || (r.stored === 'pending' && r.reservedTo > m.now)),
    )
    .reduce((sum, r) => sum + r.grams, 0);
}
export const modelAvailable = (m: Model, org: string, credit: string) =>
  (m.warehouse.get(key(org, credit)) ?? 0) - modelHeld(m, org, credit);
export const add = (map: Map<string, number>, k: string, grams: number) => map.set(k, (map.get(k) ?? 0) + grams);

/** Runs an operation the model says must be refused: it must throw `kind` and change nothing. */
export function expectRefused(w: World, kind: RegistryError['kind'], run: () => unknown) {
  const before = registrySnapshot(w.ctx);
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(RegistryError);
  expect((caught as RegistryError).kind).toBe(kind);
  expect(registrySnapshot(w.ctx)).toBe(before);
}

// ---- the checks after every step ---------------------------------------------------------------------

export function checkBooks(w: World, m: Model) {
  const db = w.ctx.db.raw;
  const one = (sql: string, ...args: unknown[]) => (db.prepare(sql).get(...args) as { n: number }).n;
  for (const credit of w.credits) {
    const issued = one('SELECT COALESCE(SUM(amount), 0) AS n FROM credit_events WHERE credit_id = ?', credit);
    const held = one('SELECT COALESCE(SUM(amount), 0) AS n FROM balances WHERE credit_id = ?', credit);
    const retired = one('SELECT COALESCE(SUM(amount), 0) AS n FROM retirements WHERE credit_id = ?', credit);
    const cancelled = one(`SELECT COALESCE(SUM(amount), 0) AS n FROM movements WHERE credit_id = ? AND kind = 'cancel'`, credit);
    expect(held + retired + cancelled).toBe(issued);
  }
  const ledger = db
    .prepare(
      `SELECT account_id, credit_id, SUM(delta) AS amount FROM (
         SELECT to_account AS account_id, credit_id, amount AS delta FROM movements WHERE to_account IS NOT NULL
         UNION ALL SELECT from_account, credit_id, -amount FROM movements WHERE from_account IS NOT NULL) AS m
       GROUP BY account_id, credit_id HAVING SUM(delta) <> 0 ORDER BY account_id, credit_id`,
    )
    .all();
  expect(db.prepare('SELECT account_id, credit_id, amount FROM balances WHERE amount <> 0 ORDER BY account_id, credit_id').all()).toEqual(
    ledger,
  );
  for (const org of w.orgs) {
    for (const credit of w.credits) {
      const available = availableInWarehouse(w.ctx, org, credit);
      expect(available).toBeGreaterThanOrEqual(0);
      expect(available).toBe(modelAvailable(m, org, credit));
      expect(warehouseBalance(w.ctx, org, credit)).toBe(m.warehouse.get(key(org, credit)) ?? 0);
      expect(inventoryBalance(w.ctx, org, credit)).toBe(m.inventory.get(key(org, credit)) ?? 0);
      expect(heldInWarehouse(w.ctx, org, credit)).toBe(modelHeld(m, org, credit));
    }
  }
  for (const r of m.reservations) {
    const state = getReservation(w.ctx, r.org, r.id).state as ReservationState;
    expect(RESERVATION_STATES).toContain(state);
    expect(state).toBe(expectedState(m, r));
    const previous = m.seen.get(r.id);
    if (previous && TERMINAL_RESERVATION_STATES.includes(previous)) expect(state).toBe(previous);
    m.seen.set(r.id, state);
  }
}
