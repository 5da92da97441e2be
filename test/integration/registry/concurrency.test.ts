// Races over real HTTP: many clients at once against one credit and one reservation. The check and
// the change of every warehouse request are one synchronous SQLite transaction, so the outcome must
// be as if the requests had come one by one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callEndpoint,
  ok,
  startWarehouseWorld,
  untilComplete,
  warehouseBalance,
  inventoryBalance,
  type WarehouseWorld,
} from '@test/support/warehouse';

let w: WarehouseWorld;
beforeAll(async () => {
  w = await startWarehouseWorld();
});
afterAll(() => w.t.close());

const A = () => ({ id: w.f.orgA });
const G = 1_000_000;

async function availableGrams(): Promise<number> {
  const inv = await ok('getWarehouseInventory', await callEndpoint(w.t, 'getWarehouseInventory', { token: w.writeToken, params: A() }));
  return Math.round((inv.credits.find((c) => c.id === w.f.creditId)?.amount ?? 0) * G);
}

function reserveAll(amounts: number[]) {
  return Promise.all(
    amounts.map((amount) =>
      callEndpoint(w.t, 'createReservation', { token: w.writeToken, params: A(), body: { creditId: w.f.creditId, amount } }),
    ),
  );
}

describe('concurrent reservations of one credit', () => {
  it('50 clients asking for 30 t of 500 t: exactly 16 succeed, the rest get 409', async () => {
    const before = await availableGrams();
    expect(before).toBe(500 * G);
    const responses = await reserveAll(Array.from({ length: 50 }, () => 30));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(16);
    expect(statuses.filter((s) => s === 409)).toHaveLength(34);
    expect(await availableGrams()).toBe(before - 16 * 30 * G);
    for (const r of responses) if (r.status === 200) await ok('createReservation', r);
  });

  it('50 clients with mixed amounts never take more than is available', async () => {
    const before = await availableGrams();
    const amounts = Array.from({ length: 50 }, (_, i) => 0.5 + ((i * 7919) % 13) + i / 1000);
    const responses = await reserveAll(amounts);
    let taken = 0;
    for (const r of responses) {
      if (r.status === 200) taken += Math.round((await ok('createReservation', r)).amount * G);
      else expect(r.status).toBe(409);
    }
    expect(taken).toBeLessThanOrEqual(before);
    expect(await availableGrams()).toBe(before - taken);
    // the refusals were genuine: whatever is left is less than the smallest refused request
    const refused = amounts.filter((_, i) => responses[i]!.status === 409).map((a) => Math.round(a * G));
    if (refused.length > 0) expect(before - taken).toBeLessThan(Math.max(...refused));
  });
});

describe('concurrent finishes of one reservation', () => {
  it('50 parallel finishes: exactly one 200, the credits move once', async () => {
    const cancelAll = await ok(
      'listReservations',
      await callEndpoint(w.t, 'listReservations', { token: w.writeToken, params: A(), query: { limit: '100' } }),
    );
    for (const r of cancelAll.reservations) {
      if (r.state === 'pending')
        await callEndpoint(w.t, 'cancelReservation', { token: w.writeToken, params: { ...A(), reservationId: r.id } });
    }
    const reservation = await ok(
      'createReservation',
      await callEndpoint(w.t, 'createReservation', { token: w.writeToken, params: A(), body: { creditId: w.f.creditId, amount: 10 } }),
    );
    const warehouseBefore = warehouseBalance(w.t.registry, w.f.orgA, w.f.creditId);
    const receiverBefore = inventoryBalance(w.t.registry, w.f.orgB, w.f.creditId);
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        callEndpoint(w.t, 'finishReservation', {
          token: w.writeToken,
          params: { ...A(), reservationId: reservation.id, action: i % 2 === 0 ? 'transfer' : 'transfer_retire' },
          body: { receiverId: w.f.orgB, retirementData: { reason: 'r', beneficiaryName: 'b' } },
        }),
      ),
    );
    const winners = responses.filter((r) => r.status === 200);
    expect(winners).toHaveLength(1);
    expect(responses.filter((r) => r.status === 409)).toHaveLength(49);
    const answer = await ok('finishReservation', winners[0]!);
    const done = await untilComplete(w, reservation.id);
    expect(done.state).toBe('processed');
    expect(warehouseBalance(w.t.registry, w.f.orgA, w.f.creditId)).toBe(warehouseBefore - 10 * G);
    const transfers = w.t.registry.db.raw
      .prepare(`SELECT COUNT(*) AS n FROM movements WHERE kind = 'transfer' AND reference = ?`)
      .get(answer.transactionId);
    expect(transfers).toEqual({ n: 1 });
    expect(w.t.registry.db.raw.prepare('SELECT COUNT(*) AS n FROM transactions WHERE reservation_id = ?').get(reservation.id)).toEqual({
      n: 1,
    });
    // a transfer_retire winner retired what it received; a transfer winner kept it
    const received = inventoryBalance(w.t.registry, w.f.orgB, w.f.creditId) - receiverBefore;
    expect(received).toBe(done.retirementId ? 0 : 10 * G);
  });

  it('cancel racing finish: exactly one of them wins', async () => {
    for (let round = 0; round < 10; round++) {
      const r = await ok(
        'createReservation',
        await callEndpoint(w.t, 'createReservation', { token: w.writeToken, params: A(), body: { creditId: w.f.creditId, amount: 1 } }),
      );
      const [cancelled, finished] = await Promise.all([
        callEndpoint(w.t, 'cancelReservation', { token: w.writeToken, params: { ...A(), reservationId: r.id } }),
        callEndpoint(w.t, 'finishReservation', {
          token: w.writeToken,
          params: { ...A(), reservationId: r.id, action: 'transfer' },
          body: { receiverId: w.f.orgB },
        }),
      ]);
      expect([cancelled.status, finished.status].sort()).toEqual([200, 409]);
    }
  });
});
