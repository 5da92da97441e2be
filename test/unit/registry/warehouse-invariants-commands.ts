// The warehouse invariants test's commands (fast-check): each runs one registry operation, checks it
// did what the model predicts (or was refused and changed nothing), then checks the books.
import { expect } from 'vitest';
import fc from 'fast-check';
import * as ops from '@registry/operations';
import { RESERVATION_LIFETIME_MS } from '@registry/warehouse/lifecycle';
import { cancelReservation, reserveCredits } from '@registry/warehouse/reservations';
import { finishReservation } from '@registry/warehouse/finish';
import { processQueue } from '@registry/warehouse/worker';
import { add, checkBooks, expectedState, expectRefused, key, modelAvailable, type Model, type World } from './warehouse-invariants-model';

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
export const commands = [
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
