// Back office: Issuance. The form (project, vintage, ex-post or ex-ante, amount typed in the user's
// locale, receiving organization, monitoring period, verification body, buffer share), then the
// review (the registry's dry run of exactly this body) and only then, on the user's confirmation,
// the write with its own idempotency key.
import { useState } from 'react';
import { ISSUABLE_PROJECT_STATUSES } from '@shared/registry/vocabulary';
import { GatedButton } from '@renderer/components/backOffice/RoleGate';
import { useBackOfficeRead } from '@renderer/components/backOffice/useBackOfficeRead';
import { ErrorMessage } from '@renderer/components/feedback';
import { Field } from '@renderer/components/Field';
import { DateInput } from '@renderer/components/DateInput';
import { dateHint } from '@renderer/lib/localeDate';
import { parseTonnes } from '@renderer/lib/decimal';
import { describeError } from '@renderer/lib/desk';
import { BackOfficePage } from './BackOfficePage';
import { LedgerReview } from './ledger/LedgerReview';
import { UnderstoodAmount } from '@renderer/components/UnderstoodAmount';
import { reportFormProblems } from '@renderer/lib/focus';
import { say } from '@renderer/components/Announcer';
import { EMPTY, issuanceBody, issuanceProblems, type IssuanceForm } from './issuance/issuanceForm';

export function IssuanceScreen() {
  const [form, setForm] = useState<IssuanceForm>(EMPTY);
  const [reviewing, setReviewing] = useState(false);
  const [tried, setTried] = useState(false);
  const validated = useBackOfficeRead('operatorListProjects', { query: { limit: 100, status: 'validated' } });
  const registered = useBackOfficeRead('operatorListProjects', { query: { limit: 100, status: 'registered' } });
  const organizations = useBackOfficeRead('operatorListOrganizations', { query: { limit: 100 } });
  const projects = [...(validated.data?.data.projects ?? []), ...(registered.data?.data.projects ?? [])]
    .filter((p) => ISSUABLE_PROJECT_STATUSES.includes(p.status))
    .sort((a, b) => a.fullName.localeCompare(b.fullName));
  const orgs = organizations.data?.data.organizations ?? [];
  const project = projects.find((p) => p.id === form.projectId);
  const owner = orgs.find((o) => o.id === project?.organizationId);
  const receivers = orgs.filter((o) => o.isVerified && !o.isRegistry && o.type !== 'validationVerificationBody');
  const verifiers = orgs.filter((o) => o.type === 'validationVerificationBody');
  const problems = issuanceProblems(form);
  const amount = parseTonnes(form.amount);
  const set = <K extends keyof IssuanceForm>(key: K, value: IssuanceForm[K]) => setForm((f) => ({ ...f, [key]: value }));
  const loadError = validated.error ?? registered.error ?? organizations.error;

  return (
    <BackOfficePage title="Issuance">
      {loadError !== null && loadError !== undefined && <ErrorMessage error={describeError(loadError)} onRetry={organizations.reload} />}
      {reviewing ? (
        <LedgerReview
          write="operatorIssueCredits"
          body={issuanceBody(form)}
          title={`Review the issuance of ${amount.ok ? amount.shown : ''} to ${project?.fullName ?? ''}, vintage ${form.vintage}`}
          doneTitle={`Issued ${amount.ok ? amount.shown : ''} to ${project?.fullName ?? ''}, vintage ${form.vintage}`}
          confirmLabel={`Issue ${amount.ok ? amount.shown : ''}`}
          onBack={(made) => {
            setReviewing(false);
            // A new issuance starts without the last amount: sent again by mistake it would issue twice.
            if (made) {
              set('amount', '');
              // A new form: its problems are said once the user tries to review it, not before.
              setTried(false);
            }
          }}
        />
      ) : (
        <form
          className="form form-columns back-office-form"
          aria-label="Issuance"
          onSubmit={(e) => {
            e.preventDefault();
            setTried(true);
            if (Object.keys(problems).length === 0) setReviewing(true);
            // Refused: focus the first field to fix and say why (else nothing is heard or seen to happen).
            else reportFormProblems(e.currentTarget, Object.values(problems), say);
          }}
        >
          <Field label="Project" error={tried ? problems.projectId : null} hint="Validated and registered projects only.">
            <select value={form.projectId} onChange={(e) => set('projectId', e.target.value)}>
              <option value="">Choose a project…</option>
              {projects.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.fullName} (#{p.num}, {p.status})
                </option>
              ))}
            </select>
          </Field>
          <Field label="Vintage" error={tried ? problems.vintage : null}>
            <input inputMode="numeric" value={form.vintage} onChange={(e) => set('vintage', e.target.value)} />
          </Field>
          <fieldset className="choice-group span-all">
            <legend>Credit type</legend>
            {(
              [
                ['exPost', 'Ex-post', 'Reductions already verified.'],
                ['exAnte', 'Ex-ante', 'Expected reductions, issued ahead.'],
              ] as const
            ).map(([value, label, hint]) => (
              <label key={value} className="choice">
                <input type="radio" name="credit-type" value={value} checked={form.type === value} onChange={() => set('type', value)} />
                <span>
                  <strong>{label}</strong>
                  <span className="field-hint"> {hint}</span>
                </span>
              </label>
            ))}
          </fieldset>
          <Field label="Amount (tonnes)" error={tried || form.amount ? (problems.amount ?? null) : null}>
            <input inputMode="decimal" value={form.amount} onChange={(e) => set('amount', e.target.value)} />
          </Field>
          <UnderstoodAmount shown={amount.ok ? amount.shown : null} />
          <Field
            label="Receiving organization"
            hint={owner ? `The project's owner, ${owner.fullName}, unless another proponent is chosen.` : undefined}
          >
            <select value={form.receivingOrganizationId} onChange={(e) => set('receivingOrganizationId', e.target.value)}>
              <option value="">{owner ? `${owner.fullName} (project owner)` : 'The project owner'}</option>
              {receivers
                .filter((o) => o.id !== owner?.id)
                .map((o) => (
                  <option key={o.id} value={o.id}>
                    {o.fullName}
                  </option>
                ))}
            </select>
          </Field>
          <Field label="Verification body" error={tried ? problems.verificationBodyId : null}>
            <select value={form.verificationBodyId} onChange={(e) => set('verificationBodyId', e.target.value)}>
              <option value="">Choose…</option>
              {verifiers.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.fullName}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Monitoring period start" hint={dateHint()} error={tried ? problems.monitoringPeriodStart : null}>
            <DateInput value={form.monitoringPeriodStart} onChange={(text) => set('monitoringPeriodStart', text)} />
          </Field>
          <Field label="Monitoring period end" hint={dateHint()} error={tried ? problems.monitoringPeriodEnd : null}>
            <DateInput value={form.monitoringPeriodEnd} onChange={(text) => set('monitoringPeriodEnd', text)} />
          </Field>
          <Field label="Buffer share (%)" hint="Empty: the registry's default share." error={problems.bufferPercent}>
            <input inputMode="decimal" value={form.bufferPercent} onChange={(e) => set('bufferPercent', e.target.value)} />
          </Field>
          <div className="actions span-all">
            <GatedButton can="operatorIssueCredits" type="submit" className="button button-primary">
              Review issuance
            </GatedButton>
          </div>
        </form>
      )}
    </BackOfficePage>
  );
}
