// The certificate's details of a finalization: beneficiary, reason, comment, and the on-chain
// reference (filled in where the desk knows it); review is refused while the wallet check objects.
import { useState } from 'react';
import type { FinalizeFields } from '@renderer/wallet/signedMessage';
import { Field } from '@renderer/components/Field';
import { reportFormProblems } from '@renderer/lib/focus';
import { say } from '@renderer/components/Announcer';
import { tokenHint, validate, type Hints } from './finalizeFields';

export function DetailsForm({
  fields,
  hints,
  walletProblem,
  onChange,
  onReview,
}: {
  fields: FinalizeFields;
  hints: Hints | null;
  /** Why signing must not happen yet (the wallet check), or null. */
  walletProblem: string | null;
  onChange: (key: keyof FinalizeFields, value: string) => void;
  onReview: () => void;
}) {
  const [showProblems, setShowProblems] = useState(false);
  const problems = showProblems ? validate(fields) : {};
  const set = (key: keyof FinalizeFields) => (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
    onChange(key, e.target.value);
  return (
    <form
      className="form"
      onSubmit={(e) => {
        e.preventDefault();
        setShowProblems(true);
        const found = validate(fields);
        if (Object.keys(found).length === 0 && !walletProblem) onReview();
        else reportFormProblems(e.currentTarget, Object.values(found), say);
      }}
    >
      <Field label="Beneficiary" error={problems.beneficiary}>
        <input value={fields.beneficiary} onChange={set('beneficiary')} />
      </Field>
      <Field label="Reason" error={problems.reason}>
        <input value={fields.reason} onChange={set('reason')} />
      </Field>
      <Field label="Comment">
        <textarea rows={2} value={fields.comment} onChange={set('comment')} />
      </Field>
      <Field
        label="Project contract address"
        hint={
          hints?.projectAddress ? "Filled in from the project's credits in the desk's data." : "From the wallet's retirement transaction."
        }
        error={problems.projectAddress}
      >
        <input className="mono" spellCheck={false} value={fields.projectAddress} onChange={set('projectAddress')} />
      </Field>
      <Field label="Token id" hint={tokenHint(hints)} error={problems.tokenId}>
        <input className="mono" inputMode="numeric" list="finalize-token-ids" value={fields.tokenId} onChange={set('tokenId')} />
      </Field>
      <datalist id="finalize-token-ids">
        {hints?.tokens.map((t) => (
          <option key={t.tokenId} value={t.tokenId}>
            {`${t.serialization} (${t.vintage})`}
          </option>
        ))}
      </datalist>
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={walletProblem !== null}>
          Review what will be signed
        </button>
      </div>
    </form>
  );
}
