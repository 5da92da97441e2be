// Finishing a reservation: choose transfer or transfer-and-retire (nothing chosen by default), fill in the receiver (and the
// retirement), read a confirmation that states exactly what will happen, then follow the outcome.
import type { Reservation } from '@shared/registry/resources';
import { Dialog } from '@renderer/components/Dialog';
import { ErrorMessage } from '@renderer/components/feedback';
import { ReviewConfirmActions } from '@renderer/components/ReviewFormActions';
import { formatTonnesValue } from '@renderer/lib/format';
import { Countdown } from './Countdown';
import { describeFinish } from './finishPlan';
import { FinishFormStep } from './FinishFormStep';
import { OutcomeTracker } from './OutcomeTracker';
import { useFinishReservation } from './useFinishReservation';

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

/** Finishing is over once the reservation ran out: say so, and offer to reserve the credit again. */
function ReservationExpired({ onClose, onReserveAgain }: { onClose: () => void; onReserveAgain?: () => void }) {
  return (
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
  );
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
  const { form, setForm, step, setStep, problems, showProblems, organizations, receivers, receiverName, finish, transaction, expired } =
    useFinishReservation({ organizationId, reservation, clockOffsetMs, onFinished });
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
      {expired && <ReservationExpired onClose={onClose} onReserveAgain={onReserveAgain} />}
      {!expired && step === 'form' && (
        <FinishFormStep
          form={form}
          onChange={setForm}
          problems={problems}
          organizations={organizations}
          receivers={receivers}
          onShowProblems={showProblems}
          onReview={() => setStep('confirm')}
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
