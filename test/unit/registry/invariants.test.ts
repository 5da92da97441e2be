// Model-based property test of the warehouse, calling the registry's functions directly on a real
// SQLite file (and, in the `postgres` vitest project, on a real PostgreSQL database: fewer and
// shorter runs there, each on a database of its own). fast-check generates sequences of reserve / cancel / finish / clock advance /
// deposit / withdraw / worker runs over several organizations; a small model predicts which must
// succeed, and after every step the registry's books are checked:
//   - per credit: issued (credit_events) = every balance + retired + cancelled
//   - the ledger (sum of movements per account) equals the balances table
//   - available (warehouse balance − held) is never negative, and equals the model's
//   - each reservation reads as exactly the state the model expects; terminal states never change
import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ManualClock } from '@platform/clock';
import type { OpenedRegistry } from '@registry/open';
import * as ops from '@registry/operations';
import { RegistryError } from '@registry/errors';
import { heldInWarehouse } from '@registry/holds';
import { availableInWarehouse } from '@registry/warehouse/inventory';
import { RESERVATION_LIFETIME_MS, TERMINAL_RESERVATION_STATES } from '@registry/warehouse/lifecycle';
import { cancelReservation, getReservation, reserveCredits } from '@registry/warehouse/reservations';
import { finishReservation } from '@registry/warehouse/finish';
import { processQueue } from '@registry/warehouse/worker';
import { RESERVATION_STATES, type ReservationState } from '@shared/registry/vocabulary';
import { makeDataDir, ON_POSTGRES, openTestRegistryOn, rsaKeyPair } from '@test/support/registry';
import { inventoryBalance, registrySnapshot, warehouseBalance } from '@test/support/warehouse';
import { stockWarehouse } from '@test/support/stocked-warehouse';

interface World {
  ctx: OpenedRegistry;
  clock: ManualClock;
  orgs: string[]; // warehouse owners and receivers; the last one is unverified
  credits: string[];
  appId: string;
  close(): void;
}

const worlds: World[] = [];
afterEach(() => {
  for (const w of worlds.splice(0)) w.close();
});

function buildWorld(): World {
  const data = makeDataDir('warehouse-invariants-');
  const clock = new ManualClock(Date.parse('2025-01-01T00:00:00Z'));
  const ctx = openTestRegistryOn(data, clock);
  expect(ctx.db.engine).toBe(ON_POSTGRES ? 'postgres' : 'sqlite');
  const validator = ops.createOrganization(ctx, {
    fullName: 'Validator',
    type: 'validationVerificationBody',
    countryCode: 'GB',
    verified: true,
  }).id;
  const orgs = [
    ops.createOrganization(ctx, { fullName: 'North', countryCode: 'KE', verified: true }).id,
    ops.createOrganization(ctx, { fullName: 'South', countryCode: 'BR', verified: true }).id,
    ops.createOrganization(ctx, { fullName: 'East (unverified)', countryCode: 'IN', verified: false }).id,
  ];
  const credits: string[] = [];
  for (const [i, owner] of orgs.slice(0, 2).entries()) {
    const stock = { organizationId: owner, verificationBodyId: validator, projectName: `Project ${i}`, vintages: ['2021', '2022'] };
    credits.push(...stockWarehouse(ctx, { ...stock, issue: 100, bufferBasisPoints: 1000, deposit: 40 }));
  }
  const appId = ops.createApp(ctx, { name: 'Property app', publicKeyPem: rsaKeyPair(0).publicKeyPem }).id;
  const world = { ctx, clock, orgs, credits, appId, close: () => (ctx.close(), data.remove()) };
  worlds.push(world);
  return world;
}

// ---- the model -------------------------------------------------------------------------------------

interface ModelReservation {
  id: string;
  org: string;
  credit: string;
  grams: number;
  reservedTo: number;
  stored: 'pending' | 'cancelled' | 'pending_queue' | 'processed';
  retire: boolean;
  receiver: string;
}

interface Model {
  now: number;
  reservations: ModelReservation[];
  /** grams per `${org}|${credit}` */
  warehouse: Map<string, number>;
  inventory: Map<string, number>;
  /** last state read for each reservation, to prove terminal states never change */
  seen: Map<string, ReservationState>;
}

const key = (org: string, credit: string) => `${org}|${credit}`;
const expectedState = (m: Model, r: ModelReservation): ReservationState =>
  r.stored === 'pending' && r.reservedTo <= m.now ? 'expired' : r.stored;
function modelHeld(m: Model, org: string, credit: string): number {
  return m.reservations
    .filter(
      (r) => r.org === org && r.credit === credit && (r.stored === 'pending_queue' || (r.stored === 'pending' && r.reservedTo > m.now)),
    )
    .reduce((sum, r) => sum + r.grams, 0);
}
const modelAvailable = (m: Model, org: string, credit: string) => (m.warehouse.get(key(org, credit)) ?? 0) - modelHeld(m, org, credit);
const add = (map: Map<string, number>, k: string, grams: number) => map.set(k, (map.get(k) ?? 0) + grams);

/** Runs an operation the model says must be refused: it must throw `kind` and change nothing. */
function expectRefused(w: World, kind: RegistryError['kind'], run: () => unknown) {
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

function checkBooks(w: World, m: Model) {
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

// ---- commands ----------------------------------------------------------------------------------------

type Cmd = fc.Command<Model, World>;

class Reserve implements Cmd {
  constructor(
    readonly org: number,
    readonly credit: number,
    readonly grams: number,
  ) {}
  check = () => true;
  run(m: Model, w: World) {
    const org = w.orgs[this.org % 2]!;
    const credit = w.credits[this.credit % w.credits.length]!;
    const amount = this.grams / 1e6;
    if (this.grams <= modelAvailable(m, org, credit)) {
      const answer = reserveCredits(w.ctx, { organizationId: org, appId: w.appId, creditId: credit, amount });
      expect(Math.round(answer.amount * 1e6)).toBe(this.grams);
      m.reservations.push({
        id: answer.id,
        org,
        credit,
        grams: this.grams,
        reservedTo: m.now + RESERVATION_LIFETIME_MS,
        stored: 'pending',
        retire: false,
        receiver: '',
      });
    } else {
      expectRefused(w, 'conflict', () => reserveCredits(w.ctx, { organizationId: org, appId: w.appId, creditId: credit, amount }));
    }
    checkBooks(w, m);
  }
  toString = () => `reserve(org${this.org % 2}, credit${this.credit}, ${this.grams} g)`;
}

class ReserveTooFine implements Cmd {
  constructor(readonly grams: number) {}
  check = () => true;
  run(m: Model, w: World) {
    expectRefused(w, 'bad_request', () =>
      reserveCredits(w.ctx, { organizationId: w.orgs[0]!, appId: w.appId, creditId: w.credits[0]!, amount: this.grams / 1e6 + 1e-7 }),
    );
    checkBooks(w, m);
  }
  toString = () => `reserveTooFine(${this.grams} g + 0.1 g)`;
}

class Cancel implements Cmd {
  constructor(readonly pick: number) {}
  check = (m: Readonly<Model>) => m.reservations.length > 0;
  run(m: Model, w: World) {
    const r = m.reservations[this.pick % m.reservations.length]!;
    if (expectedState(m, r) === 'pending') {
      expect(cancelReservation(w.ctx, r.org, r.id).state).toBe('cancelled');
      r.stored = 'cancelled';
    } else {
      expectRefused(w, 'conflict', () => cancelReservation(w.ctx, r.org, r.id));
    }
    checkBooks(w, m);
  }
  toString = () => `cancel(#${this.pick})`;
}

class Finish implements Cmd {
  constructor(
    readonly pick: number,
    readonly receiver: number,
    readonly retire: boolean,
  ) {}
  check = (m: Readonly<Model>) => m.reservations.length > 0;
  run(m: Model, w: World) {
    const r = m.reservations[this.pick % m.reservations.length]!;
    const receiver = w.orgs[this.receiver % w.orgs.length]!;
    const input = {
      organizationId: r.org,
      reservationId: r.id,
      action: this.retire ? ('transfer_retire' as const) : ('transfer' as const),
      body: { receiverId: receiver, ...(this.retire ? { retirementData: { reason: 'Offset', beneficiaryName: 'Someone' } } : {}) },
    };
    if (expectedState(m, r) === 'pending') {
      expect(finishReservation(w.ctx, input)).toMatchObject({ success: true, state: 'pending_queue' });
      Object.assign(r, { stored: 'pending_queue', retire: this.retire, receiver });
    } else {
      expectRefused(w, 'conflict', () => finishReservation(w.ctx, input));
    }
    checkBooks(w, m);
  }
  toString = () => `finish(#${this.pick}, org${this.receiver}, ${this.retire ? 'transfer_retire' : 'transfer'})`;
}

class RunWorker implements Cmd {
  check = () => true;
  run(m: Model, w: World) {
    const queued = m.reservations.filter((r) => r.stored === 'pending_queue');
    expect(processQueue(w.ctx)).toEqual({ processed: queued.length, failed: 0 });
    for (const r of queued) {
      r.stored = 'processed';
      add(m.warehouse, key(r.org, r.credit), -r.grams);
      if (!r.retire) add(m.inventory, key(r.receiver, r.credit), r.grams);
    }
    expect(processQueue(w.ctx)).toEqual({ processed: 0, failed: 0 }); // nothing twice
    checkBooks(w, m);
  }
  toString = () => 'runWorker';
}

class AdvanceClock implements Cmd {
  constructor(readonly ms: number) {}
  check = () => true;
  run(m: Model, w: World) {
    w.clock.advance(this.ms);
    m.now += this.ms;
    checkBooks(w, m);
  }
  toString = () => `advance(${this.ms} ms)`;
}

class Deposit implements Cmd {
  constructor(
    readonly org: number,
    readonly credit: number,
    readonly grams: number,
  ) {}
  check = () => true;
  run(m: Model, w: World) {
    const org = w.orgs[this.org % 2]!;
    const credit = w.credits[this.credit % w.credits.length]!;
    const input = { organizationId: org, creditId: credit, amount: this.grams / 1e6 };
    if (this.grams <= (m.inventory.get(key(org, credit)) ?? 0)) {
      ops.depositToWarehouse(w.ctx, input);
      add(m.inventory, key(org, credit), -this.grams);
      add(m.warehouse, key(org, credit), this.grams);
    } else {
      expectRefused(w, 'conflict', () => ops.depositToWarehouse(w.ctx, input));
    }
    checkBooks(w, m);
  }
  toString = () => `deposit(org${this.org % 2}, credit${this.credit}, ${this.grams} g)`;
}

class Withdraw implements Cmd {
  constructor(
    readonly org: number,
    readonly credit: number,
    readonly grams: number,
  ) {}
  check = () => true;
  run(m: Model, w: World) {
    const org = w.orgs[this.org % 2]!;
    const credit = w.credits[this.credit % w.credits.length]!;
    const input = { organizationId: org, creditId: credit, amount: this.grams / 1e6 };
    if (this.grams <= modelAvailable(m, org, credit)) {
      ops.withdrawFromWarehouse(w.ctx, input);
      add(m.warehouse, key(org, credit), -this.grams);
      add(m.inventory, key(org, credit), this.grams);
    } else {
      expectRefused(w, 'conflict', () => ops.withdrawFromWarehouse(w.ctx, input));
    }
    checkBooks(w, m);
  }
  toString = () => `withdraw(org${this.org % 2}, credit${this.credit}, ${this.grams} g)`;
}

const grams = fc.oneof(fc.integer({ min: 1, max: 30_000_000 }), fc.integer({ min: 1, max: 999 }));
const commands = [
  fc.tuple(fc.nat(), fc.nat(), grams).map(([o, c, g]) => new Reserve(o, c, g)),
  fc.tuple(fc.nat(), fc.nat(), grams).map(([o, c, g]) => new Reserve(o, c, g)),
  grams.map((g) => new ReserveTooFine(g)),
  fc.nat().map((p) => new Cancel(p)),
  fc.tuple(fc.nat(), fc.nat(), fc.boolean()).map(([p, r, retire]) => new Finish(p, r, retire)),
  fc.tuple(fc.nat(), fc.nat(), fc.boolean()).map(([p, r, retire]) => new Finish(p, r, retire)),
  fc.constant(new RunWorker()),
  fc.constantFrom(1, 60_000, 4 * 60_000, RESERVATION_LIFETIME_MS - 1, RESERVATION_LIFETIME_MS).map((ms) => new AdvanceClock(ms)),
  fc.tuple(fc.nat(), fc.nat(), grams).map(([o, c, g]) => new Deposit(o, c, g)),
  fc.tuple(fc.nat(), fc.nat(), grams).map(([o, c, g]) => new Withdraw(o, c, g)),
];

function initialModel(w: World): Model {
  const m: Model = { now: w.clock.now(), reservations: [], warehouse: new Map(), inventory: new Map(), seen: new Map() };
  for (const [i, credit] of w.credits.entries()) {
    const owner = w.orgs[Math.floor(i / 2)]!;
    m.warehouse.set(key(owner, credit), 40_000_000);
    m.inventory.set(key(owner, credit), 90_000_000 - 40_000_000); // 100 t issued, 10 % to the buffer
  }
  return m;
}

describe('warehouse invariants under random command sequences', () => {
  it('keeps the books exact, availability non-negative and states consistent after every step', () => {
    fc.assert(
      fc.property(fc.commands(commands, { maxCommands: ON_POSTGRES ? 40 : 60 }), (cmds) => {
        const w = buildWorld();
        try {
          fc.modelRun(() => ({ model: initialModel(w), real: w }), cmds);
        } finally {
          worlds.splice(worlds.indexOf(w), 1);
          w.close();
        }
      }),
      // PostgreSQL: each run creates and migrates a database, and every check is a round trip
      { numRuns: ON_POSTGRES ? 12 : 150 },
    );
  });
});
