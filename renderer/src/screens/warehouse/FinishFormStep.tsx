// The first step of finishing a reservation: transfer or transfer-and-retire (nothing chosen by
// default), the receiver, the price, and for a retirement its beneficiary and reason.
import type { DeskOutput } from '@shared/desk/api';
import { Field } from '@renderer/components/Field';
import { ErrorMessage } from '@renderer/components/feedback';
import { ReviewFormActions } from '@renderer/components/ReviewFormActions';
import { reportFormProblems } from '@renderer/lib/focus';
import { say } from '@renderer/components/Announcer';
import { validateFinish, type FinishForm, type FinishProblems } from './finishPlan';

function FinishActionChoice({
  form,
  setForm,
  problems,
}: {
  form: FinishForm;
  setForm: (form: FinishForm) => void;
  problems: FinishProblems;
}) {
  return (
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
  );
}

export function FinishFormStep({
  form,
  setForm,
  problems,
  set,
  organizations,
  receivers,
  setShowProblems,
  setStep,
  onClose,
}: {
  form: FinishForm;
  setForm: (form: FinishForm) => void;
  problems: FinishProblems;
  set: (key: keyof FinishForm) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) => void;
  organizations: { data: unknown; error: unknown; reload: () => void };
  receivers: DeskOutput<'organizations.list'>['organizations'];
  setShowProblems: (show: boolean) => void;
  setStep: (step: 'confirm') => void;
  onClose: () => void;
}) {
  return (
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
      <FinishActionChoice form={form} setForm={setForm} problems={problems} />
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
  );
}
