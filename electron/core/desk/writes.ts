// The desk methods that need the registry: warehouse reservations, retirement finalize and
// certificates. Each goes through the same client as every other call; offline they fail with
// code `offline` before anything is sent, so nothing half-happens. The core never sees a wallet
// key: finalize forwards the signature the renderer's wallet made.
import type { z } from 'zod';
import type { DeskEvent, DeskInput, DeskOutput } from '@shared/desk/api';
import type { finishBody } from '@shared/registry/endpoints';
import type { Reservation } from '@shared/registry/resources';
import { RegistryError, STATUS_OF } from '../registry';
import { EmbeddedRegistryStopped } from './embedded';
import { DeskFailure, fromRegistryAnswer, offlineFailure } from './errors';
import type { Clock } from '@platform/clock';
import type { ConnectionRuntime } from './connection-runtime';
import { withRegistry, type OnlineTracker } from './registry-calls';
import { settleRefusals } from './verification/guard';
import type { InstallationInfo } from './types';

export interface WriteContext {
  runtime: ConnectionRuntime;
  tracker: OnlineTracker;
  clock: Clock;
  publish(event: DeskEvent): void;
  /** How a finished reservation is followed (tests shorten it). */
  follow?: { intervalMs: number; timeoutMs: number };
}

const FINAL_STATES = new Set(['processed', 'failed', 'cancelled', 'expired']);

export function installationFor(runtime: ConnectionRuntime, organizationId: string): InstallationInfo {
  const installation = runtime.connection.installations.find((i) => i.organizationId === organizationId);
  if (!installation) {
    throw new DeskFailure(
      'forbidden',
      `This app is not installed in organization ${organizationId}; refresh the installations in Connections if that changed`,
    );
  }
  return installation;
}

function requireWarehouseWrite(installation: InstallationInfo): void {
  if (installation.permissions.organization_warehouse !== 'WRITE') {
    throw new DeskFailure(
      'forbidden',
      `The installation in ${installation.organizationName} may not change its warehouse (organization_warehouse is ${installation.permissions.organization_warehouse ?? 'not granted'})`,
    );
  }
}

export async function reserve(
  ctx: WriteContext,
  input: DeskInput<'warehouse.reserve'> & { amount: number },
): Promise<DeskOutput<'warehouse.reserve'>> {
  const installation = installationFor(ctx.runtime, input.organizationId);
  requireWarehouseWrite(installation);
  const made = await withRegistry(ctx.tracker, 'Reserving credits', () =>
    ctx.runtime.client.call('createReservation', {
      params: { id: input.organizationId },
      body: { creditId: input.creditId, amount: input.amount },
      installationId: installation.id,
    }),
  );
  // Every window (and the reservation notices on every screen) learns of it at once.
  ctx.publish({ type: 'reservation.updated', organizationId: input.organizationId, reservationId: made.id, state: 'pending' });
  return made;
}

export async function cancel(ctx: WriteContext, input: { organizationId: string; reservationId: string }): Promise<Reservation> {
  const installation = installationFor(ctx.runtime, input.organizationId);
  requireWarehouseWrite(installation);
  const cancelled = await withRegistry(ctx.tracker, 'Cancelling a reservation', () =>
    ctx.runtime.client.call('cancelReservation', {
      params: { id: input.organizationId, reservationId: input.reservationId },
      installationId: installation.id,
    }),
  );
  ctx.publish({
    type: 'reservation.updated',
    organizationId: input.organizationId,
    reservationId: input.reservationId,
    state: cancelled.state,
  });
  return cancelled;
}

export async function getReservation(ctx: WriteContext, input: { organizationId: string; reservationId: string }): Promise<Reservation> {
  const installation = installationFor(ctx.runtime, input.organizationId);
  return withRegistry(ctx.tracker, 'Reading a reservation', () =>
    ctx.runtime.client.call('getReservation', {
      params: { id: input.organizationId, reservationId: input.reservationId },
      installationId: installation.id,
    }),
  );
}

type FinishInput = {
  organizationId: string;
  reservationId: string;
  action: 'transfer' | 'transfer_retire';
  body: z.output<typeof finishBody>;
};

export async function finish(ctx: WriteContext, input: FinishInput): Promise<DeskOutput<'warehouse.finish'>> {
  const installation = installationFor(ctx.runtime, input.organizationId);
  requireWarehouseWrite(installation);
  if (input.action === 'transfer_retire' && !input.body.retirementData) {
    throw new DeskFailure('invalid_input', 'Transfer and retire needs the retirement data (reason and beneficiary name)', [
      'body.retirementData: required for transfer_retire',
    ]);
  }
  const result = await withRegistry(ctx.tracker, 'Finishing a reservation', () =>
    ctx.runtime.client.call('finishReservation', {
      params: { id: input.organizationId, reservationId: input.reservationId, action: input.action },
      body: input.body,
      installationId: installation.id,
    }),
  );
  ctx.publish({
    type: 'reservation.updated',
    organizationId: input.organizationId,
    reservationId: input.reservationId,
    state: result.state,
  });
  void followReservation(ctx, input.organizationId, input.reservationId, installation.id, result.state);
  return result;
}

/**
 * After a finish the registry queues the transfer; the desk polls the reservation until it is
 * processed or failed (at most a minute) and tells the renderer each change of state.
 */
async function followReservation(
  ctx: WriteContext,
  organizationId: string,
  reservationId: string,
  installationId: string,
  lastState: string,
): Promise<void> {
  const { intervalMs, timeoutMs } = ctx.follow ?? { intervalMs: 300, timeoutMs: 60_000 };
  const deadline = Date.now() + timeoutMs;
  let state = lastState;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
    let reservation: Reservation;
    try {
      reservation = await ctx.runtime.client.call('getReservation', { params: { id: organizationId, reservationId }, installationId });
    } catch {
      continue; // a passing failure; the next poll (or the next sync) catches up
    }
    if (reservation.state !== state) {
      state = reservation.state;
      ctx.publish({ type: 'reservation.updated', organizationId, reservationId, state });
    }
    if (FINAL_STATES.has(state)) {
      void ctx.runtime.sync.run(['warehouses', 'retirements']).catch(() => {});
      return;
    }
  }
}

export async function finalize(ctx: WriteContext, input: DeskInput<'retirements.finalize'>): Promise<DeskOutput<'retirements.finalize'>> {
  const { retirementId, ...body } = input;
  const retirement = await withRegistry(ctx.tracker, 'Finalizing the retirement', () =>
    ctx.runtime.client.call('finalizeRetirement', { body }),
  );
  if (retirement.id !== retirementId) {
    // The registry finds the retirement from the signed data; a mismatch means the renderer signed another one.
    throw new DeskFailure('conflict', `The signature finalized retirement ${retirement.id}, not ${retirementId}`);
  }
  // Write it through: the next incremental sync reads only the newest retirements. The cache
  // refuses it when it differs from its verified leaf (verification/guard.ts); that is kept as evidence.
  try {
    ctx.runtime.cache.write.putRetirement(retirement);
  } catch (error) {
    const refused = settleRefusals(ctx.runtime.cache.db, ctx.clock.now());
    if (refused) throw new DeskFailure('conflict', `The retirement was finalized, but the desk does not show it: ${refused}`);
    throw error;
  }
  void ctx.runtime.sync.run(['retirements']).catch(() => {});
  return { retirement };
}

/** Whether `wallet` made the retirement: the registry's list of that wallet's retirements holds it. */
export async function walletCheck(ctx: WriteContext, input: { retirementId: string; wallet: string }): Promise<{ owns: boolean }> {
  const answer = await withRegistry(ctx.tracker, 'Checking the wallet', () =>
    ctx.runtime.client.call('listEntityRetirementsV1', { params: { id: input.wallet.toLowerCase() } }),
  ).catch((error: unknown) => {
    // An address the registry knows nothing about is 404: it made no retirement at all.
    if (error instanceof DeskFailure && error.code === 'not_found') return { retirements: [] };
    throw error;
  });
  return { owns: answer.retirements.some((r) => r.id === input.retirementId) };
}

/**
 * A retirement's PDF certificate, named by the desk (`retirement-<id>.pdf`), never by the
 * registry's Content-Disposition; an answer that is not a PDF is refused.
 */
export async function certificate(ctx: WriteContext, input: { id: string }): Promise<{ baseName: string; bytes: Uint8Array }> {
  const action = 'Downloading the certificate';
  const local = ctx.runtime.localCertificate;
  const bytes = local
    ? await localCertificate(ctx.tracker, action, () => local(input.id))
    : Uint8Array.from(
        (await withRegistry(ctx.tracker, action, () => ctx.runtime.client.call('getRetirementPdf', { params: { retirementId: input.id } })))
          .bytes,
      );
  if (Buffer.from(bytes.subarray(0, 5)).toString('latin1') !== '%PDF-') {
    throw new DeskFailure('registry_error', `The registry's certificate for retirement ${input.id} is not a PDF document`);
  }
  return { baseName: certificateName(input.id), bytes };
}

/** The file name the desk gives a retirement's certificate. */
export function certificateName(retirementId: string): string {
  return `retirement-${retirementId}.pdf`;
}

/** The embedded registry's certificate in-process, its failures as its HTTP answers would be. */
async function localCertificate(tracker: OnlineTracker, action: string, render: () => Promise<Uint8Array>): Promise<Uint8Array> {
  try {
    const bytes = await render();
    tracker.report(true);
    return bytes;
  } catch (error) {
    if (error instanceof EmbeddedRegistryStopped) {
      tracker.report(false);
      throw offlineFailure(action);
    }
    if (error instanceof RegistryError) {
      tracker.report(true);
      throw fromRegistryAnswer({ status: STATUS_OF[error.kind], message: error.messages.join('; ') });
    }
    throw error;
  }
}
