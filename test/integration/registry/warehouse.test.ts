// The warehouse over real HTTP: reserve, list, get, cancel, derived expiry, permissions and
// validation (finishing a reservation: warehouse-finish.test.ts). Every success answer is parsed with
// the strict contract schema; every refusal is checked to have changed nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAccountId } from '@registry/ledger';
import { RESERVATION_LIFETIME_MS } from '@registry/warehouse/lifecycle';
import {
  callEndpoint,
  fails,
  ok,
  registrySnapshot,
  startWarehouseWorld,
  warehouseBalance,
  type WarehouseWorld,
} from '@test/support/warehouse';
import { warehouseCalls } from '@test/support/warehouse-calls';

let w: WarehouseWorld;
const G = 1_000_000; // grams per tonne

beforeAll(async () => {
  w = await startWarehouseWorld();
});
afterAll(() => w.t.close());

const { A, inventory, available, reserve, get, finish, cancel } = warehouseCalls(() => w);

describe('warehouse inventory', () => {
  it('lists each credit with its available amount, the warehouse account as inventoryId, and ignores development', async () => {
    const res = await callEndpoint(w.t, 'getWarehouseInventory', { token: w.viewToken, params: A(), query: { development: 'true' } });
    const body = await ok('getWarehouseInventory', res);
    expect(body.organizationId).toBe(w.f.orgA);
    const entry = body.credits.find((c) => c.id === w.f.creditId)!;
    expect(entry).toMatchObject({ organizationId: w.f.orgA, serialization: w.f.serialization, type: 'exPost' });
    expect(entry.inventoryId).toBe(findAccountId(w.t.registry, { kind: 'warehouse', organizationId: w.f.orgA }));
    expect(entry.amount * G).toBe(warehouseBalance(w.t.registry, w.f.orgA, w.f.creditId) - heldNow());
  });

  it('keeps a wholly reserved credit listed: amount (available) 0, held and reserved say why', async () => {
    const balance = warehouseBalance(w.t.registry, w.f.orgA, w.f.creditId);
    const before = (await inventory()).credits.find((c) => c.id === w.f.creditId)!;
    expect(before).toMatchObject({ held: balance / G, reserved: heldNow() / G, amount: (balance - heldNow()) / G });
    const all = await reserve(before.amount);
    const entry = (await inventory()).credits.find((c) => c.id === w.f.creditId);
    expect(entry).toMatchObject({ id: w.f.creditId, amount: 0, held: balance / G, reserved: balance / G });
    // "all reserved" is not "withdrawn": cancelling brings the same credit back as available
    await ok('cancelReservation', await cancel(all.id));
    expect((await inventory()).credits.find((c) => c.id === w.f.creditId)).toMatchObject({ amount: before.amount, held: balance / G });
  });

  it('is empty for an organization whose warehouse holds nothing', async () => {
    const body = await ok(
      'getWarehouseInventory',
      await callEndpoint(w.t, 'getWarehouseInventory', { token: w.otherOrgToken, params: { id: w.f.orgB } }),
    );
    expect(body).toEqual({ credits: [], organizationId: w.f.orgB });
  });
});

/** Grams held by active or queued reservations, read straight from the table. */
function heldNow(): number {
  const row = w.t.registry.db.raw
    .prepare(
      `SELECT COALESCE(SUM(amount), 0) AS held FROM reservations WHERE (state = 'pending' AND reserved_to > ?) OR state = 'pending_queue'`,
    )
    .get(w.t.registry.clock.now()) as { held: number };
  return row.held;
}

describe('reserve, get, list', () => {
  it('reserves, holds the credits and shows the full 2.12 record', async () => {
    const before = await available();
    const answer = await reserve(12.345678);
    expect(answer).toMatchObject({ creditId: w.f.creditId, serialization: w.f.serialization, amount: 12.345678 });
    expect(Math.round((before - (await available())) * G)).toBe(12_345_678);
    const r = await get(answer.id);
    expect(r).toMatchObject({
      id: answer.id,
      creditId: w.f.creditId,
      amount: 12.345678,
      state: 'pending',
      isComplete: false,
      retirementId: null,
      type: 'exPost',
      serialization: w.f.serialization,
      reserver: { id: w.writer.id, name: 'Marketplace' },
    });
    expect(Date.parse(r.reservedToDate) - Date.parse(r.createdAt)).toBe(RESERVATION_LIFETIME_MS);
    expect(r.updatedAt).toBe(r.createdAt);
    expect(`exPost-${r.tokenId}-${r.tokenAddress}`).toBe(w.f.creditId);
    expect(r.project.id).toBe(w.f.projectId);
  });

  it('lists every reservation newest first, paginated from page 0', async () => {
    const ids = [(await reserve(0.001)).id, (await reserve(0.002)).id, (await reserve(0.003)).id];
    const page0 = await ok(
      'listReservations',
      await callEndpoint(w.t, 'listReservations', { token: w.viewToken, params: A(), query: { limit: '2', page: '0' } }),
    );
    expect(page0.reservations.map((r) => r.id)).toEqual([ids[2], ids[1]]);
    expect(page0.pagination).toMatchObject({ currentPage: 0, prevPage: null, nextPage: 1 });
    const total = page0.pagination.total;
    const page1 = await ok(
      'listReservations',
      await callEndpoint(w.t, 'listReservations', { token: w.viewToken, params: A(), query: { limit: '2', page: '1' } }),
    );
    expect(page1.reservations[0]!.id).toBe(ids[0]);
    const past = await ok(
      'listReservations',
      await callEndpoint(w.t, 'listReservations', { token: w.viewToken, params: A(), query: { page: '999' } }),
    );
    expect(past.reservations).toEqual([]);
    expect(past.pagination.total).toBe(total);
    expect(past.pagination.nextPage).toBeNull();
  });

  it('refuses more than is available with 409 naming the available figure, and changes nothing', async () => {
    const free = await available();
    const before = registrySnapshot(w.t.registry);
    const messages = await fails(
      await callEndpoint(w.t, 'createReservation', {
        token: w.writeToken,
        params: A(),
        body: { creditId: w.f.creditId, amount: free + 0.000001 },
      }),
      409,
    );
    expect(messages.join(' ')).toContain(`${free} t`);
    expect(registrySnapshot(w.t.registry)).toBe(before);
  });

  it('answers 404 for an unknown credit and 409 for a credit this warehouse does not hold', async () => {
    const before = registrySnapshot(w.t.registry);
    await fails(
      await callEndpoint(w.t, 'createReservation', {
        token: w.writeToken,
        params: A(),
        body: { creditId: 'exPost-99-0x0000000000000000000000000000000000000000', amount: 1 },
      }),
      404,
    );
    const messages = await fails(
      await callEndpoint(w.t, 'createReservation', {
        token: w.otherOrgToken,
        params: { id: w.f.orgB },
        body: { creditId: w.f.creditId, amount: 1 },
      }),
      409,
    );
    expect(messages.join(' ')).toMatch(/Not enough credits: 0 t/);
    expect(registrySnapshot(w.t.registry)).toBe(before);
  });

  it('refuses bad bodies with 400 listing every problem, and amounts finer than a gram', async () => {
    const before = registrySnapshot(w.t.registry);
    const both = await fails(
      await callEndpoint(w.t, 'createReservation', { token: w.writeToken, params: A(), body: { creditId: '', amount: 'ten' } }),
      400,
    );
    expect(both.some((m) => m.startsWith('body.creditId'))).toBe(true);
    expect(both.some((m) => m.startsWith('body.amount'))).toBe(true);
    for (const amount of [0, -1, 0.0000001, 1.0000005]) {
      await fails(
        await callEndpoint(w.t, 'createReservation', { token: w.writeToken, params: A(), body: { creditId: w.f.creditId, amount } }),
        400,
      );
    }
    await fails(await callEndpoint(w.t, 'createReservation', { token: w.writeToken, params: A(), body: {} }), 400);
    expect(registrySnapshot(w.t.registry)).toBe(before);
  });

  it('ignores a repeated organizationId and other unknown fields', async () => {
    const res = await callEndpoint(w.t, 'createReservation', {
      token: w.writeToken,
      params: A(),
      body: { creditId: w.f.creditId, amount: 0.5, organizationId: w.f.orgA, note: 'x' },
    });
    expect((await ok('createReservation', res)).amount).toBe(0.5);
  });

  it('answers 404 for unknown reservations and for reservations of another organization', async () => {
    const mine = await reserve(0.01);
    await fails(await callEndpoint(w.t, 'getReservation', { token: w.writeToken, params: { ...A(), reservationId: 'nope' } }), 404);
    await fails(await cancel('nope'), 404);
    await fails(await finish('nope', 'transfer', { receiverId: w.f.orgB }), 404);
    await fails(
      await callEndpoint(w.t, 'getReservation', { token: w.otherOrgToken, params: { id: w.f.orgB, reservationId: mine.id } }),
      404,
    );
  });
});

describe('cancel', () => {
  it('cancels an active reservation, frees its credits at once, and refuses a second cancel or a finish', async () => {
    const before = await available();
    const r = await reserve(3);
    expect(await available()).toBeCloseTo(before - 3, 6);
    const cancelled = await ok('cancelReservation', await cancel(r.id));
    expect(cancelled).toMatchObject({ id: r.id, state: 'cancelled', isComplete: false });
    expect(await available()).toBe(before);
    const snapshot = registrySnapshot(w.t.registry);
    await fails(await cancel(r.id), 409);
    await fails(await finish(r.id, 'transfer', { receiverId: w.f.orgB }), 409);
    expect(registrySnapshot(w.t.registry)).toBe(snapshot);
    expect((await get(r.id)).state).toBe('cancelled');
  });
});

describe('expiry, derived from the clock with no job', () => {
  it('reads as expired everywhere once reservedToDate passes, frees the credits, and refuses finish and cancel', async () => {
    const before = await available();
    const r = await reserve(4);
    expect(await available()).toBeCloseTo(before - 4, 6);
    w.t.clock.advance(RESERVATION_LIFETIME_MS);
    const expired = await get(r.id);
    expect(expired.state).toBe('expired');
    expect(expired.isComplete).toBe(false);
    expect(expired.updatedAt).toBe(expired.reservedToDate);
    // nothing persisted it: the answer is derived
    expect(w.t.registry.db.raw.prepare('SELECT state FROM reservations WHERE id = ?').get(r.id)).toEqual({ state: 'pending' });
    // every reservation made earlier in this file lapsed too, so more than its 4 t came back
    expect(await available()).toBeGreaterThanOrEqual(before);
    expect(Math.round((await available()) * G)).toBe(warehouseBalance(w.t.registry, w.f.orgA, w.f.creditId) - heldNow());
    const listed = await ok(
      'listReservations',
      await callEndpoint(w.t, 'listReservations', { token: w.viewToken, params: A(), query: { limit: '100' } }),
    );
    expect(listed.reservations.find((x) => x.id === r.id)?.state).toBe('expired');
    const snapshot = registrySnapshot(w.t.registry);
    await fails(await finish(r.id, 'transfer', { receiverId: w.f.orgB }), 409);
    await fails(await cancel(r.id), 409);
    expect(registrySnapshot(w.t.registry)).toBe(snapshot);
  });

  it('is still active one millisecond before reservedToDate', async () => {
    const r = await reserve(0.25);
    w.t.clock.advance(RESERVATION_LIFETIME_MS - 1_000);
    expect((await get(r.id)).state).toBe('pending');
    await ok('cancelReservation', await cancel(r.id));
  });
});

describe('who may call', () => {
  it('refuses another organization (403), an app token (403) and a VIEW-only installation for writes (403)', async () => {
    const r = await reserve(0.1);
    const before = registrySnapshot(w.t.registry);
    const body = { creditId: w.f.creditId, amount: 1 };
    await fails(await callEndpoint(w.t, 'createReservation', { token: w.writeToken, params: { id: w.f.orgB }, body }), 403);
    await fails(await callEndpoint(w.t, 'getWarehouseInventory', { token: w.writeToken, params: { id: w.f.orgB } }), 403);
    await fails(await callEndpoint(w.t, 'createReservation', { token: w.appOnlyToken, params: A(), body }), 403);
    await fails(await callEndpoint(w.t, 'listReservations', { token: w.appOnlyToken, params: A() }), 403);
    const view = await fails(await callEndpoint(w.t, 'createReservation', { token: w.viewToken, params: A(), body }), 403);
    expect(view.join(' ')).toMatch(/organization_warehouse:write/);
    await fails(await cancel(r.id, w.viewToken), 403);
    await fails(await finish(r.id, 'transfer', { receiverId: w.f.orgB }, w.viewToken), 403);
    await fails(await callEndpoint(w.t, 'createReservation', { token: 'rdt_' + '0'.repeat(48), params: A(), body }), 401);
    expect(registrySnapshot(w.t.registry)).toBe(before);
    // VIEW may read
    await ok('getReservation', await callEndpoint(w.t, 'getReservation', { token: w.viewToken, params: { ...A(), reservationId: r.id } }));
  });
});
