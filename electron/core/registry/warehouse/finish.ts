// Finishing a reservation (4.5, POST …/reservations/{reservationId}/{action}). The request only
// queues the work: in one transaction it records a `transactions` row (pending_queue) and moves the
// reservation to pending_queue, where it keeps holding its credits. The worker (worker.ts) moves the
// credits. Everything a transfer needs is checked here, so a transfer never fails later for a reason
// the request could have caught (unknown receiver, missing retirement data).
import { z } from 'zod';
import { finishBody } from '@shared/registry/endpoints';
import { FINISH_ACTIONS, type FinishAction } from '@shared/registry/vocabulary';
import type { RegistryContext } from '../context';
import { badRequest, conflict, notFound } from '../errors';
import { parseInput } from '../input';
import { effectiveState, isActive } from './lifecycle';
import { findReservationRow } from './present';
import { signalTransactionQueued } from './queue-signal';

export const finishInput = z
  .object({
    organizationId: z.string().min(1),
    reservationId: z.string().min(1),
    action: z.enum(FINISH_ACTIONS),
    body: finishBody,
  })
  .superRefine((o, issue) => {
    if (o.action === 'transfer_retire' && !o.body.retirementData) {
      issue.addIssue({
        code: 'custom',
        path: ['body', 'retirementData'],
        message: 'is required for transfer_retire: { reason, beneficiaryName, comment? }',
      });
    }
  });

export interface FinishAnswer {
  success: true;
  transactionId: string;
  state: 'pending_queue';
}

export function finishReservation(ctx: RegistryContext, input: z.input<typeof finishInput>): FinishAnswer {
  const o = parseInput(finishInput, input);
  const action: FinishAction = o.action;
  const answer = ctx.db.transaction((): FinishAnswer => {
    const reservation = findReservationRow(ctx, o.organizationId, o.reservationId);
    if (!reservation) throw notFound(`Reservation ${o.reservationId} not found`);
    // The receiver is part of the request body, not the resource addressed, so an unknown one is bad input.
    const { db } = ctx;
    if (!db.first(db.q.selectFrom('organizations').select('id').where('id', '=', o.body.receiverId))) {
      throw badRequest(`body.receiverId: organization ${o.body.receiverId} does not exist`);
    }
    const now = ctx.clock.now();
    if (!isActive(reservation, now)) {
      throw conflict(
        `Reservation ${o.reservationId} is ${effectiveState(reservation, now)}; only an active (pending) reservation can be finished`,
      );
    }
    const transactionId = ctx.newId();
    const retirement = action === 'transfer_retire' ? o.body.retirementData : undefined;
    db.run(
      db.q.insertInto('transactions').values({
        id: transactionId,
        reservation_id: o.reservationId,
        action,
        state: 'pending_queue',
        receiver_id: o.body.receiverId,
        receiver_address: o.body.receiverAddress?.toLowerCase() ?? null,
        transfer_comment: o.body.transferComment ?? null,
        price: o.body.priceInfo ? String(o.body.priceInfo.price) : null,
        currency: o.body.priceInfo?.currency ?? null,
        retirement_reason: retirement?.reason ?? null,
        beneficiary_name: retirement?.beneficiaryName ?? null,
        retirement_comment: retirement?.comment ?? null,
        failure_reason: null,
        created_at: now,
        updated_at: now,
        processed_at: null,
      }),
    );
    db.run(
      db.q
        .updateTable('reservations')
        .set({ state: 'pending_queue', transaction_id: transactionId, updated_at: now })
        .where('id', '=', o.reservationId),
    );
    return { success: true, transactionId, state: 'pending_queue' };
  });
  signalTransactionQueued(ctx);
  return answer;
}
