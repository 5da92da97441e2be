// The first step of finishing a reservation: transfer or transfer-and-retire (nothing chosen by
// default), the receiver, the price, and for a retirement its beneficiary and reason.
import type { DeskOutput } from '@shared/desk/api';
import { Field } from '@renderer/components/Field';
import { ErrorMessage } from '@renderer/components/feedback';
import { ReviewFormActions } from '@renderer/components/ReviewFormActions';
import { reportFormProblems } from '@renderer/lib/focus';
import { say } from '@renderer/components/Announcer';
import { currencyProblem, priceHint, validateFinish, type FinishAction, type FinishForm, type FinishProblems } from './finishPlan';

/** One of the two ways to finish, as a radio with its name and hint (ids `finish-<id>-name`, `-hint`). */
function ChoiceOption({
  action,
  id,
  name,
  hint,
  form,
  onChange,
  invalid,
}: {
  action: FinishAction;
  id: string;
  name: string;
  hint: string;
  form: FinishForm;
  onChange: (form: FinishForm) => void;
  invalid: boolean;
}) {
  return (
    <label className={form.action === action ? 'choice choice-on' : 'choice'}>
      <input
        type="radio"
        name="finish-action"
        checked={form.action === action}
        onChange={() => onChange({ ...form, action })}
        aria-invalid={invalid ? true : undefined}
        aria-labelledby={`finish-${id}-name`}
        aria-describedby={`finish-${id}-hint`}
      />
      <span>
        <strong id={`finish-${id}-name`}>{name}</strong>
        <span id={`finish-${id}-hint`} className="choice-hint">
          {hint}
        </span>
      </span>
    </label>
  );
}

function FinishActionChoice({
  form,
  onChange,
  problems,
}: {
  form: FinishForm;
  onChange: (form: FinishForm) => void;
  problems: FinishProblems;
}) {
  const invalid = Boolean(problems.action);
  return (
    <fieldset className="choice-group span-all" aria-describedby={problems.action ? 'finish-action-error' : undefined}>
      <legend>What should happen to the credits?</legend>
      <ChoiceOption
        action="transfer"
        id="transfer"
        name="Transfer"
        hint="The receiving organization gets the credits and can still use them."
        form={form}
        onChange={onChange}
        invalid={invalid}
      />
      <ChoiceOption
        action="transfer_retire"
        id="transfer-retire"
        name="Transfer and retire"
        hint="The credits are retired for a beneficiary at once. This cannot be undone."
        form={form}
        onChange={onChange}
        invalid={invalid}
      />
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
  onChange,
  problems,
  organizations,
  receivers,
  onShowProblems,
  onReview,
  onClose,
}: {
  form: FinishForm;
  onChange: (form: FinishForm) => void;
  /** The problems shown (none until the form was first submitted). */
  problems: FinishProblems;
  organizations: { data: unknown; error: unknown; reload: () => void };
  /** The organizations the credits can go to, in name order. */
  receivers: DeskOutput<'organizations.list'>['organizations'];
  /** Submitted: show the problems from now on. */
  onShowProblems: () => void;
  /** Submitted with nothing wrong: on to the confirmation. */
  onReview: () => void;
  onClose: () => void;
}) {
  const set = (key: keyof FinishForm) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) =>
    onChange({ ...form, [key]: e.target.value });
  return (
    <form
      className="form form-columns"
      onSubmit={(e) => {
        e.preventDefault();
        onShowProblems();
        const found = validateFinish(form);
        if (Object.keys(found).length === 0) onReview();
        else reportFormProblems(e.currentTarget, Object.values(found), say);
      }}
    >
      <FinishActionChoice form={form} onChange={onChange} problems={problems} />
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
      <Field label="Price per tonne (optional)" hint={priceHint(form.currency)} error={problems.price}>
        <input inputMode="decimal" value={form.price} onChange={set('price')} />
      </Field>
      {/* A currency that is no code is said at once, not only after Review: the price's hint no longer names it. */}
      <Field label="Currency of the price" error={problems.currency ?? (form.currency.trim() ? currencyProblem(form.currency) : null)}>
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
