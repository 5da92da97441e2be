// Finishing a reservation: choose transfer or transfer-and-retire (nothing chosen by default), fill in the receiver (and the
// retirement), read a confirmation that states exactly what will happen, then follow the outcome.
import { useState } from 'react';
import type { Reservation } from '@shared/registry/resources';
import { desk } from '@renderer/lib/desk';
import { useLoader, useNow } from '@renderer/lib/hooks';
import { registryNow, reservationPhase } from './reservationPhase';
import { Dialog } from '@renderer/components/Dialog';
import { ErrorMessage } from '@renderer/components/feedback';
import { ReviewConfirmActions } from '@renderer/components/ReviewFormActions';
import { useAction } from '@renderer/components/useAction';
import { formatTonnesValue } from '@renderer/lib/format';
import { Countdown } from './Countdown';
import { EMPTY_FINISH_FORM, describeFinish, finishBody, validateFinish, type FinishForm } from './finishPlan';
import { FinishFormStep } from './FinishFormStep';
import { OutcomeTracker } from './OutcomeTracker';

interface Props {
  organizationId: string;
  organizationName: string;
  reservation: Reservation;
  clockOffsetMs: number;
  onClose: () => void;
  onFinished: () => void;
  /** Offered once the reservation has expired: reserve the same credit again. */
  onReserveAgain?: () => void;
  /** Where focus goes on closing once the Finish button that opened it is gone (the reservation's row). */
  returnFocus?: () => Element | null | undefined;
}

export function FinishDialog({
  organizationId,
  organizationName,
  reservation,
  clockOffsetMs,
  onClose,
  onFinished,
  onReserveAgain,
  returnFocus,
}: Props) {
  const [form, setForm] = useState<FinishForm>(EMPTY_FINISH_FORM);
  const [step, setStep] = useState<'form' | 'confirm' | 'outcome'>('form');
  const [showProblems, setShowProblems] = useState(false);
  const [transaction, setTransaction] = useState<{ id: string; state: string } | null>(null);
  const organizations = useLoader(() => desk('organizations.list', {}), []);
  const receivers = (organizations.data?.organizations ?? [])
    .filter((o) => o.id !== organizationId)
    .sort((a, b) => a.fullName.localeCompare(b.fullName));
  const receiverName = receivers.find((o) => o.id === form.receiverId)?.fullName ?? '';
  const problems = showProblems ? validateFinish(form) : {};
  const set = (key: keyof FinishForm) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) =>
    setForm({ ...form, [key]: e.target.value });

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
  const title = form.action === 'transfer_retire' ? 'Transfer and retire' : 'Transfer';
  const heading = step === 'outcome' ? 'Outcome' : form.action ? `Finish reservation: ${title.toLowerCase()}` : 'Finish reservation';
  return (
    <Dialog title={heading} onClose={onClose} wide step={expired ? 'expired' : step} returnFocus={returnFocus}>
      {step !== 'outcome' && !expired && (
        <p className="muted">
          {formatTonnesValue(reservation.amount)} of <span className="mono">{reservation.serialization}</span> (
          {reservation.project.fullName}). Reservation ends in{' '}
          <Countdown until={reservation.reservedToDate} from={reservation.createdAt} clockOffsetMs={clockOffsetMs} words={false} />.
        </p>
      )}
      {expired && (
        <section aria-label="Reservation expired">
          <p className="notice notice-bad" role="alert" data-step-focus tabIndex={-1}>
            This reservation has expired, so it can no longer be finished: its credits went back to the warehouse. Nothing was transferred.
          </p>
          <div className="actions">
            <button type="button" className="button" onClick={onClose}>
              Close
            </button>
            {onReserveAgain && (
              <button type="button" className="button button-primary" onClick={onReserveAgain}>
                Reserve again…
              </button>
            )}
          </div>
        </section>
      )}
      {!expired && step === 'form' && (
        <FinishFormStep
          form={form}
          setForm={setForm}
          problems={problems}
          set={set}
          organizations={organizations}
          receivers={receivers}
          setShowProblems={setShowProblems}
          setStep={setStep}
          onClose={onClose}
        />
      )}
      {!expired && step === 'confirm' && (
        <section aria-label="Confirmation">
          <h3 className="confirm-heading">Please confirm. When you press “{title}”:</h3>
          <ol className="confirmation">
            {describeFinish(form, {
              amount: reservation.amount,
              serialization: reservation.serialization,
              projectName: reservation.project.fullName,
              fromName: organizationName,
              receiverName,
            }).map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ol>
          <ErrorMessage error={finish.error ? `Nothing was transferred: ${finish.error}` : null} />
          <ReviewConfirmActions onBack={() => setStep('form')} busy={finish.busy} onConfirm={() => void finish.run()}>
            {finish.busy ? 'Sending…' : title}
          </ReviewConfirmActions>
        </section>
      )}
      {step === 'outcome' && transaction && (
        <OutcomeTracker
          organizationId={organizationId}
          reservationId={reservation.id}
          transactionId={transaction.id}
          initialState={transaction.state}
          retire={form.action === 'transfer_retire'}
          onClose={onClose}
        />
      )}
    </Dialog>
  );
}
