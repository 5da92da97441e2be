// Test support for the warehouse: a fixture registry with apps installed on organization A (one
// with warehouse WRITE, one VIEW only), typed calls that parse every success answer with the
// strict contract schemas, and ledger read-outs to check what moved.
import { expect } from 'vitest';
import { endpoints, fillPath, type EndpointId } from '@shared/registry/endpoints';
import { strict, type Pagination, type Reservation, type Retirement, type WarehouseInventoryCredit } from '@shared/registry/resources';
import type { OpenedRegistry } from '@registry/open';
import type { RegistryContext } from '@registry/context';
import * as ops from '@registry/operations';
import { findAccountId, balanceOf } from '@registry/ledger';
import { onTransactionHandled } from '@registry/warehouse/queue-signal';
import { buildFixture, type Fixture } from './fixture';
import { appToken, createTestApp, installationToken, startTestRegistry, type TestApp, type TestRegistry } from './registry';

export interface WarehouseWorld {
  t: TestRegistry;
  f: Fixture;
  writer: TestApp;
  writerInstallation: string;
  viewerInstallation: string;
  /** Installation token of organization A with organization_warehouse WRITE. */
  writeToken: string;
  /** Installation token of organization A with organization_warehouse VIEW. */
  viewToken: string;
  /** Installation token of organization B (WRITE on B's warehouse). */
  otherOrgToken: string;
  /** An app token: no organization. */
  appOnlyToken: string;
}

export async function startWarehouseWorld(options: { background?: boolean } = {}): Promise<WarehouseWorld> {
  let f!: Fixture;
  let writer!: TestApp;
  let viewer!: TestApp;
  let writerInstallation = '';
  let viewerInstallation = '';
  let otherInstallation = '';
  const t = await startTestRegistry({
    ...(options.background === undefined ? {} : { background: options.background }),
    setup: (r) => {
      f = buildFixture(r);
      writer = createTestApp(r, { name: 'Marketplace' });
      viewer = createTestApp(r, { name: 'Dashboard', keyIndex: 0 });
      writerInstallation = ops.installApp(r, {
        appId: writer.id,
        organizationId: f.orgA,
        permissions: { organization_warehouse: 'WRITE' },
      }).id;
      viewerInstallation = ops.installApp(r, {
        appId: viewer.id,
        organizationId: f.orgA,
        permissions: { organization_warehouse: 'VIEW' },
      }).id;
      otherInstallation = ops.installApp(r, {
        appId: writer.id,
        organizationId: f.orgB,
        permissions: { organization_warehouse: 'WRITE' },
      }).id;
    },
  });
  return {
    t,
    f,
    writer,
    writerInstallation,
    viewerInstallation,
    writeToken: await installationToken(t, writer, writerInstallation),
    viewToken: await installationToken(t, viewer, viewerInstallation),
    otherOrgToken: await installationToken(t, writer, otherInstallation),
    appOnlyToken: await appToken(t, writer),
  };
}

/** Calls one endpoint of the table over HTTP; returns the raw response. */
export function callEndpoint(
  t: TestRegistry,
  id: EndpointId,
  options: { token: string; params?: Record<string, string>; query?: Record<string, string>; body?: unknown },
): Promise<Response> {
  const e = endpoints[id];
  const path = fillPath(e.path, options.params ?? {});
  const qs = options.query ? `?${new URLSearchParams(options.query).toString()}` : '';
  return t.call(`${path}${qs}`, {
    method: e.method,
    token: options.token,
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
}

/**
 * The success bodies these tests read. The table's `response` is typed as a plain ZodType, so the
 * static types are spelled out here; at run time every body is parsed with the strict schema.
 */
interface Answers {
  getWarehouseInventory: { credits: WarehouseInventoryCredit[]; organizationId: string };
  listReservations: { pagination: Pagination; reservations: Reservation[] };
  createReservation: { id: string; creditId: string; serialization: string; amount: number };
  getReservation: Reservation;
  cancelReservation: Reservation;
  finishReservation: { success: boolean; transactionId: string; state: string };
  finalizeRetirement: Retirement;
}

/** Expects a 200 and parses it with the endpoint's strict response schema. */
export async function ok<K extends keyof Answers & EndpointId>(id: K, res: Response): Promise<Answers[K]> {
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return endpoints[id].response(strict).parse(JSON.parse(text)) as Answers[K];
}

/** Expects an error status with the JSON error body of compatibility.md; returns its messages. */
export async function fails(res: Response, status: number): Promise<string[]> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  const body = strict.errorBody.parse(JSON.parse(text));
  expect(body.statusCode).toBe(status);
  return Array.isArray(body.message) ? body.message : [body.message];
}

export function warehouseBalance(ctx: RegistryContext, organizationId: string, creditId: string): number {
  const account = findAccountId(ctx, { kind: 'warehouse', organizationId });
  return account ? balanceOf(ctx, account, creditId) : 0;
}

export function inventoryBalance(ctx: RegistryContext, organizationId: string, creditId: string): number {
  const account = findAccountId(ctx, { kind: 'inventory', organizationId });
  return account ? balanceOf(ctx, account, creditId) : 0;
}

/** A fingerprint of everything the warehouse can change: to prove a refused request changed nothing. */
export function registrySnapshot(registry: OpenedRegistry): string {
  const rows = (sql: string) => registry.db.raw.prepare(sql).all();
  return JSON.stringify({
    movements: rows('SELECT * FROM movements ORDER BY id'),
    balances: rows('SELECT * FROM balances ORDER BY account_id, credit_id'),
    reservations: rows('SELECT * FROM reservations ORDER BY id'),
    transactions: rows('SELECT * FROM transactions ORDER BY id'),
    retirements: rows('SELECT * FROM retirements ORDER BY id'),
  });
}

/**
 * Resolves once `check` answers something other than undefined: checked now, then each time the
 * registry's worker has handled a transaction (no polling). Fails after `timeoutMs`.
 */
export async function afterTransactionsHandled<T>(
  ctx: RegistryContext,
  check: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 5_000,
): Promise<T> {
  let rang = 0;
  let wake: (() => void) | undefined;
  const unsubscribe = onTransactionHandled(ctx, () => {
    rang++;
    wake?.();
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`nothing the worker did settled it within ${timeoutMs} ms`)), timeoutMs);
  });
  timeout.catch(() => {}); // read by the race below, also when it fires while `check` runs
  try {
    for (;;) {
      const seen = rang;
      const value = await check();
      if (value !== undefined) return value;
      // A transaction handled while `check` ran counts: check again at once.
      if (rang === seen) await Promise.race([new Promise<void>((resolve) => (wake = resolve)), timeout]);
    }
  } finally {
    clearTimeout(timer);
    unsubscribe();
  }
}

/** The reservation, once the worker has dealt with its finish. */
export async function untilComplete(world: WarehouseWorld, reservationId: string, timeoutMs = 5_000) {
  return afterTransactionsHandled(
    world.t.registry,
    async () => {
      const reservation = await ok(
        'getReservation',
        await callEndpoint(world.t, 'getReservation', { token: world.writeToken, params: { id: world.f.orgA, reservationId } }),
      );
      return reservation.isComplete ? reservation : undefined;
    },
    timeoutMs,
  );
}
