// Finishing a reservation (4.5, POST …/reservations/{reservationId}/{action}). The request only
// queues the work: in one transaction it records a `transactions` row (pending_queue) and moves the
// reservation to pending_queue, where it keeps holding its credits. The worker (worker.ts) moves the
// credits. Everything a transfer needs is checked here, so a transfer never fails later for a reason
// the request could have caught (unknown receiver, missing retirement data).
import { z } from 'zod';
import { finishBody } from '../../../../shared/registry/endpoints';
import { FINISH_ACTIONS, type FinishAction } from '../../../../shared/registry/vocabulary';
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
    if (!ctx.db.prepare('SELECT 1 FROM organizations WHERE id = ?').get(o.body.receiverId)) {
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
    ctx.db
      .prepare(
        `INSERT INTO transactions (id, reservation_id, action, state, receiver_id, receiver_address, transfer_comment, price, currency,
           retirement_reason, beneficiary_name, retirement_comment, failure_reason, created_at, updated_at, processed_at)
         VALUES (?, ?, ?, 'pending_queue', ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, NULL)`,
      )
      .run(
        transactionId,
        o.reservationId,
        action,
        o.body.receiverId,
        o.body.receiverAddress?.toLowerCase() ?? null,
        o.body.transferComment ?? null,
        o.body.priceInfo ? String(o.body.priceInfo.price) : null,
        o.body.priceInfo?.currency ?? null,
        retirement?.reason ?? null,
        retirement?.beneficiaryName ?? null,
        retirement?.comment ?? null,
        now,
        now,
      );
    ctx.db
      .prepare(`UPDATE reservations SET state = 'pending_queue', transaction_id = ?, updated_at = ? WHERE id = ?`)
      .run(transactionId, now, o.reservationId);
    return { success: true, transactionId, state: 'pending_queue' };
  });
  signalTransactionQueued(ctx);
  return answer;
}
