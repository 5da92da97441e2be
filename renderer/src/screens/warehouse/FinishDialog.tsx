// Finishing a reservation: choose transfer or transfer-and-retire (nothing chosen by default), fill in the receiver (and the
// retirement), read a confirmation that states exactly what will happen, then follow the outcome.
import { useState } from 'react';
import type { Reservation } from '@shared/registry/resources';
import { desk } from '@renderer/lib/desk';
import { useLoader, useNow } from '@renderer/lib/hooks';
import { registryNow, reservationPhase } from './reservationPhase';
import { Dialog } from '@renderer/components/Dialog';
import { Field } from '@renderer/components/Field';
import { ErrorMessage } from '@renderer/components/feedback';
import { ReviewConfirmActions, ReviewFormActions } from '@renderer/components/ReviewFormActions';
import { useAction } from '@renderer/components/useAction';
import { formatTonnesValue } from '@renderer/lib/format';
import { Countdown } from './Countdown';
import { EMPTY_FINISH_FORM, describeFinish, finishBody, validateFinish, type FinishForm } from './finishPlan';
import { OutcomeTracker } from './OutcomeTracker';
import { reportFormProblems } from '@renderer/lib/focus';
import { say } from '@renderer/components/Announcer';

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
        <form
          className="form form-columns"
          onSubmit={(e) => {
            e.preventDefault();
            setShowProblems(true);
            const found = validateFinish(form);
            if (Object.keys(found).length === 0) setStep('confirm');
            else reportFormProblems(e.currentTarget, Object.values(found), say);
          }}
        >
          <fieldset className="choice-group span-all" aria-describedby={problems.action ? 'finish-action-error' : undefined}>
            <legend>What should happen to the credits?</legend>
            <label className={form.action === 'transfer' ? 'choice choice-on' : 'choice'}>
              <input
                type="radio"
                name="finish-action"
                checked={form.action === 'transfer'}
                onChange={() => setForm({ ...form, action: 'transfer' })}
                aria-invalid={problems.action ? true : undefined}
                aria-labelledby="finish-transfer-name"
                aria-describedby="finish-transfer-hint"
              />
              <span>
                <strong id="finish-transfer-name">Transfer</strong>
                <span id="finish-transfer-hint" className="choice-hint">
                  The receiving organization gets the credits and can still use them.
                </span>
              </span>
            </label>
            <label className={form.action === 'transfer_retire' ? 'choice choice-on' : 'choice'}>
              <input
                type="radio"
                name="finish-action"
                checked={form.action === 'transfer_retire'}
                onChange={() => setForm({ ...form, action: 'transfer_retire' })}
                aria-invalid={problems.action ? true : undefined}
                aria-labelledby="finish-transfer-retire-name"
                aria-describedby="finish-transfer-retire-hint"
              />
              <span>
                <strong id="finish-transfer-retire-name">Transfer and retire</strong>
                <span id="finish-transfer-retire-hint" className="choice-hint">
                  The credits are retired for a beneficiary at once. This cannot be undone.
                </span>
              </span>
            </label>
            {problems.action && (
              <span id="finish-action-error" className="field-error">
                {problems.action}
              </span>
            )}
          </fieldset>
          <Field label="Receiving organization" error={problems.receiverId}>
            <select value={form.receiverId} onChange={set('receiverId')} disabled={!organizations.data}>
              <option value="">{organizations.data ? 'Choose an organization' : 'Loading organizations…'}</option>
              {receivers.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.fullName}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Receiving wallet address (optional)" error={problems.receiverAddress}>
            <input className="mono" spellCheck={false} placeholder="0x…" value={form.receiverAddress} onChange={set('receiverAddress')} />
          </Field>
          <Field
            label="Price per tonne (optional)"
            hint={`Per tonne of CO₂e, in the currency ${form.currency.trim() ? form.currency.trim().toUpperCase() : 'beside it'}.`}
            error={problems.price}
          >
            <input inputMode="decimal" value={form.price} onChange={set('price')} />
          </Field>
          <Field label="Currency of the price" error={problems.currency}>
            <input maxLength={10} value={form.currency} onChange={set('currency')} />
          </Field>
          <div className="span-all">
            <Field label="Transfer comment (optional)">
              <textarea rows={2} value={form.transferComment} onChange={set('transferComment')} />
            </Field>
          </div>
          {form.action === 'transfer_retire' && (
            <>
              <Field label="Beneficiary" error={problems.beneficiaryName}>
                <input value={form.beneficiaryName} onChange={set('beneficiaryName')} />
              </Field>
              <Field label="Retirement reason" error={problems.reason}>
                <input value={form.reason} onChange={set('reason')} />
              </Field>
              <div className="span-all">
                <Field label="Retirement comment (optional)">
                  <textarea rows={2} value={form.retirementComment} onChange={set('retirementComment')} />
                </Field>
              </div>
            </>
          )}
          <ErrorMessage
            error={organizations.error ? 'The organizations could not be loaded, so no receiver can be chosen.' : null}
            onRetry={organizations.reload}
          />
          <ReviewFormActions onClose={onClose} spanAll />
        </form>
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
