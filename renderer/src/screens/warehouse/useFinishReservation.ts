// The state of finishing one reservation: the form and its step, the organizations it can go to,
// the finish itself, and whether the reservation ran out first (then nothing can be sent).
import { useState } from 'react';
import type { Reservation } from '@shared/registry/resources';
import { desk } from '@renderer/lib/desk';
import { compareNames } from '@renderer/lib/format';
import { useLoader, useNow } from '@renderer/lib/hooks';
import { useAction } from '@renderer/components/useAction';
import { registryNow, reservationPhase } from './reservationPhase';
import { EMPTY_FINISH_FORM, finishBody, validateFinish, type FinishForm } from './finishPlan';

export type FinishStep = 'form' | 'confirm' | 'outcome';

export function useFinishReservation({
  organizationId,
  reservation,
  clockOffsetMs,
  onFinished,
}: {
  organizationId: string;
  reservation: Reservation;
  clockOffsetMs: number;
  onFinished: () => void;
}) {
  const [form, setForm] = useState<FinishForm>(EMPTY_FINISH_FORM);
  const [step, setStep] = useState<FinishStep>('form');
  const [showProblems, setShowProblems] = useState(false);
  const [transaction, setTransaction] = useState<{ id: string; state: string } | null>(null);
  const organizations = useLoader(() => desk('organizations.list', {}), []);
  const receivers = (organizations.data?.organizations ?? [])
    .filter((o) => o.id !== organizationId)
    .sort((a, b) => compareNames(a.fullName, b.fullName));
  const receiverName = receivers.find((o) => o.id === form.receiverId)?.fullName ?? '';
  const problems = showProblems ? validateFinish(form) : {};

  const finish = useAction(async () => {
    if (!form.action) throw new Error('Choose Transfer, or Transfer and retire.');
    const result = await desk('warehouse.finish', {
      organizationId,
      reservationId: reservation.id,
      action: form.action,
      body: finishBody(form),
    });
    setTransaction({ id: result.transactionId, state: result.state });
    setStep('outcome');
    onFinished();
  });

  const now = useNow();
  // At expiry the form locks: the registry would refuse the finish (409) and nothing would move.
  const expired = step !== 'outcome' && !finish.busy && reservationPhase(reservation, registryNow(clockOffsetMs, now)) === 'expired';
  return {
    form,
    setForm,
    step,
    setStep,
    problems,
    showProblems: () => setShowProblems(true),
    organizations,
    receivers,
    receiverName,
    finish,
    transaction,
    expired,
  };
}
