// Finishing a warehouse reservation over real HTTP, end to end with the real worker: a transfer, a
// transfer_retire to a verified and to an unverified organization, and bad finish requests refused
// at request time with nothing changed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retirementRow, presentRetirement } from '@registry/present';
import {
  fails,
  inventoryBalance,
  ok,
  registrySnapshot,
  startWarehouseWorld,
  untilComplete,
  warehouseBalance,
  type WarehouseWorld,
} from '@test/support/warehouse';
import { warehouseCalls } from '@test/support/warehouse-calls';

let w: WarehouseWorld;

beforeAll(async () => {
  w = await startWarehouseWorld();
});
afterAll(() => w.t.close());

const { reserve, get, finish, cancel } = warehouseCalls(() => w);

describe('finish', () => {
  it('transfer: queues, then the worker moves the credits to the receiver exactly once', async () => {
    const warehouseBefore = warehouseBalance(w.t.registry, w.f.orgA, w.f.creditId);
    const receiverBefore = inventoryBalance(w.t.registry, w.f.orgB, w.f.creditId);
    const r = await reserve(7.25);
    const answer = await ok(
      'finishReservation',
      await finish(r.id, 'transfer', { receiverId: w.f.orgB, transferComment: 'thanks', priceInfo: { price: 12.5, currency: 'USD' } }),
    );
    expect(answer).toMatchObject({ success: true, state: 'pending_queue' });
    const done = await untilComplete(w, r.id);
    expect(done).toMatchObject({ state: 'processed', isComplete: true, retirementId: null });
    expect(warehouseBalance(w.t.registry, w.f.orgA, w.f.creditId)).toBe(warehouseBefore - 7_250_000);
    expect(inventoryBalance(w.t.registry, w.f.orgB, w.f.creditId)).toBe(receiverBefore + 7_250_000);
    const movements = w.t.registry.db.raw.prepare('SELECT kind, amount FROM movements WHERE reference = ?').all(answer.transactionId);
    expect(movements).toEqual([{ kind: 'transfer', amount: 7_250_000 }]);
    const tx = w.t.registry.db.raw
      .prepare('SELECT state, price, currency, transfer_comment FROM transactions WHERE id = ?')
      .get(answer.transactionId);
    expect(tx).toEqual({ state: 'processed', price: '12.5', currency: 'USD', transfer_comment: 'thanks' });
    // finishing twice is refused and moves nothing
    const snapshot = registrySnapshot(w.t.registry);
    await fails(await finish(r.id, 'transfer', { receiverId: w.f.orgB }), 409);
    await fails(await cancel(r.id), 409);
    expect(registrySnapshot(w.t.registry)).toBe(snapshot);
  });

  it('transfer_retire to a verified organization: a claimed retirement with beneficiary = beneficiaryName', async () => {
    const warehouseBefore = warehouseBalance(w.t.registry, w.f.orgA, w.f.creditId);
    const receiverBefore = inventoryBalance(w.t.registry, w.f.orgB, w.f.creditId);
    const r = await reserve(2.5);
    const answer = await ok(
      'finishReservation',
      await finish(r.id, 'transfer_retire', {
        receiverId: w.f.orgB,
        retirementData: { reason: 'Scope 3 offset', beneficiaryName: 'Jane Doe', comment: 'FY24' },
      }),
    );
    const done = await untilComplete(w, r.id);
    expect(done.state).toBe('processed');
    expect(done.retirementId).toEqual(expect.any(String));
    expect(warehouseBalance(w.t.registry, w.f.orgA, w.f.creditId)).toBe(warehouseBefore - 2_500_000);
    // transferred in and retired from the receiver's inventory: its balance is unchanged
    expect(inventoryBalance(w.t.registry, w.f.orgB, w.f.creditId)).toBe(receiverBefore);
    const retirement = presentRetirement(w.t.registry, retirementRow(w.t.registry, done.retirementId!)!);
    expect(retirement).toMatchObject({
      isClaimed: true,
      beneficiary: 'Jane Doe',
      reason: 'Scope 3 offset',
      comment: 'FY24',
      organizationId: w.f.orgB,
      amount: 2.5,
    });
    const kinds = w.t.registry.db.raw
      .prepare('SELECT kind FROM movements WHERE reference IN (?, ?) ORDER BY id')
      .all(answer.transactionId, done.retirementId) as { kind: string }[];
    expect(kinds.map((k) => k.kind)).toEqual(['transfer', 'retire']);
  });

  it('transfer_retire to an unverified organization makes an unclaimed (redacted) retirement', async () => {
    const r = await reserve(1);
    await ok(
      'finishReservation',
      await finish(r.id, 'transfer_retire', { receiverId: w.f.orgC, retirementData: { reason: 'Offset', beneficiaryName: 'Gamma' } }),
    );
    const done = await untilComplete(w, r.id);
    const retirement = presentRetirement(w.t.registry, retirementRow(w.t.registry, done.retirementId!)!);
    expect(retirement).toEqual({
      id: done.retirementId,
      isClaimed: false,
      createdAt: expect.any(String),
      amount: 1,
      project: expect.any(Object),
    });
  });

  it('refuses bad finish requests with 400 at request time and changes nothing', async () => {
    const r = await reserve(1);
    const before = registrySnapshot(w.t.registry);
    const missing = await fails(await finish(r.id, 'transfer_retire', { receiverId: w.f.orgB }), 400);
    expect(missing.join(' ')).toMatch(/retirementData/);
    await fails(await finish(r.id, 'transfer_retire', { receiverId: w.f.orgB, retirementData: { reason: '', beneficiaryName: '' } }), 400);
    const noReceiver = await fails(await finish(r.id, 'transfer', {}), 400);
    expect(noReceiver.join(' ')).toMatch(/receiverId/);
    await fails(await finish(r.id, 'transfer', { receiverId: '00000000-0000-4000-8000-000000000000' }), 400);
    await fails(
      await finish(r.id, 'transfer', { receiverId: w.f.orgB, receiverAddress: 'nope', priceInfo: { price: -1, currency: '' } }),
      400,
    );
    await fails(await finish(r.id, 'sell', { receiverId: w.f.orgB }), 400);
    expect(registrySnapshot(w.t.registry)).toBe(before);
    expect((await get(r.id)).state).toBe('pending');
  });
});
