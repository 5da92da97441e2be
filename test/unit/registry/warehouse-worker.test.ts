// The transaction worker on a real SQLite file: a transfer the warehouse can no longer cover fails
// cleanly (nothing moved, reason recorded, credits no longer held), processing is idempotent, and
// the running worker is woken by a finish rather than waiting for its poll.
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@platform/clock';
import { openRegistry, type OpenedRegistry } from '@registry/open';
import * as ops from '@registry/operations';
import { accountId, appendMovement } from '@registry/ledger';
import { heldInWarehouse } from '@registry/holds';
import { getReservation, reserveCredits } from '@registry/warehouse/reservations';
import { finishReservation } from '@registry/warehouse/finish';
import { processQueue, processTransaction, startTransactionWorker } from '@registry/warehouse/worker';
import { buildFixture, type Fixture } from '@test/support/fixture';
import { makeDataDir, rsaKeyPair } from '@test/support/registry';
import { afterTransactionsHandled, inventoryBalance, warehouseBalance } from '@test/support/warehouse';

const opened: { r: OpenedRegistry; remove(): void }[] = [];
afterEach(() => {
  for (const o of opened.splice(0)) {
    o.r.close();
    o.remove();
  }
});

function world(clock = new ManualClock(Date.parse('2025-03-01T00:00:00Z'))) {
  const data = makeDataDir('warehouse-worker-');
  const r = openRegistry({ dataDir: data.dir, clock });
  opened.push({ r, remove: data.remove });
  const f: Fixture = buildFixture(r);
  const appId = ops.createApp(r, { name: 'Worker test', publicKeyPem: rsaKeyPair(0).publicKeyPem }).id;
  const reserve = (amount: number) => reserveCredits(r, { organizationId: f.orgA, appId, creditId: f.creditId, amount }).id;
  const finish = (reservationId: string, action: 'transfer' | 'transfer_retire' = 'transfer') =>
    finishReservation(r, {
      organizationId: f.orgA,
      reservationId,
      action,
      body: { receiverId: f.orgB, ...(action === 'transfer_retire' ? { retirementData: { reason: 'r', beneficiaryName: 'b' } } : {}) },
    });
  return { r, f, clock, reserve, finish };
}

describe('processing a transaction', () => {
  it('fails cleanly when the warehouse no longer holds the credits: nothing moved, reason recorded, reservation failed', async () => {
    const { r, f, reserve, finish } = world();
    const id = reserve(100);
    const { transactionId } = finish(id, 'transfer_retire');
    // something outside the warehouse rules drained it (withdrawFromWarehouse itself refuses held credits)
    const balance = warehouseBalance(r, f.orgA, f.creditId);
    appendMovement(r, {
      creditId: f.creditId,
      kind: 'withdraw',
      from: accountId(r, { kind: 'warehouse', organizationId: f.orgA }),
      to: accountId(r, { kind: 'inventory', organizationId: f.orgA }),
      amount: balance - 50_000_000,
    });
    const movementsBefore = r.db.raw.prepare('SELECT COUNT(*) AS n FROM movements').get();
    const retirementsBefore = r.db.raw.prepare('SELECT COUNT(*) AS n FROM retirements').get();
    const receiverBefore = inventoryBalance(r, f.orgB, f.creditId);
    expect(processQueue(r)).toEqual({ processed: 0, failed: 1 });
    expect(r.db.raw.prepare('SELECT COUNT(*) AS n FROM movements').get()).toEqual(movementsBefore);
    expect(r.db.raw.prepare('SELECT COUNT(*) AS n FROM retirements').get()).toEqual(retirementsBefore);
    expect(inventoryBalance(r, f.orgB, f.creditId)).toBe(receiverBefore);
    const tx = r.db.raw.prepare('SELECT state, failure_reason FROM transactions WHERE id = ?').get(transactionId) as {
      state: string;
      failure_reason: string;
    };
    expect(tx.state).toBe('failed');
    expect(tx.failure_reason).toMatch(/no longer holds/);
    expect(getReservation(r, f.orgA, id)).toMatchObject({ state: 'failed', isComplete: true, retirementId: null });
    expect(heldInWarehouse(r, f.orgA, f.creditId)).toBe(0);
    // a failed transaction is never retried
    expect(processTransaction(r, transactionId)).toBe('not_queued');
  });

  it('processes oldest first and never twice', () => {
    const { r, reserve, finish, clock } = world();
    const first = finish(reserve(1)).transactionId;
    clock.advance(1);
    const second = finish(reserve(1)).transactionId;
    expect(processTransaction(r, second)).toBe('processed');
    expect(processTransaction(r, second)).toBe('not_queued');
    expect(processQueue(r)).toEqual({ processed: 1, failed: 0 });
    expect(processTransaction(r, first)).toBe('not_queued');
    const order = r.db.raw.prepare(`SELECT reference FROM movements WHERE kind = 'transfer' ORDER BY id`).all() as { reference: string }[];
    expect(order.map((o) => o.reference)).toEqual([second, first]);
  });
});

describe('the running worker', () => {
  it('is woken by a finish long before its poll would run, and drains what was queued before it started', async () => {
    const { r, f, reserve, finish } = world();
    const queuedBefore = finish(reserve(2)).transactionId;
    const worker = startTransactionWorker(r, { pollMs: 60_000 });
    try {
      const stateOf = (id: string) => (r.db.raw.prepare('SELECT state FROM transactions WHERE id = ?').get(id) as { state: string }).state;
      await afterTransactionsHandled(r, () => (stateOf(queuedBefore) === 'processed' ? true : undefined));
      const id = reserve(3);
      finish(id);
      // The poll is a minute away: only the finish's doorbell can have woken it within the second.
      await afterTransactionsHandled(r, () => (getReservation(r, f.orgA, id).state === 'processed' ? true : undefined), 1_000);
    } finally {
      await worker.stop();
    }
  });
});
