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
import { dateHint, formatLocaleDateInput, parseLocaleDate } from '@renderer/lib/localeDate';
import { parseTonnes } from '@renderer/lib/decimal';
import { parseLocaleDecimal } from '@renderer/lib/localeAmount';
import { formatPercentNumber } from '@renderer/lib/format';
import { describeError } from '@renderer/lib/desk';
import { BackOfficePage } from './BackOfficePage';
import { LedgerReview } from './ledger/LedgerReview';
import { useProjectProponentIds } from './ledger/projectProponents';
import { UnderstoodAmount } from '@renderer/components/UnderstoodAmount';
import { reportFormProblems } from '@renderer/lib/focus';
import { say } from '@renderer/components/Announcer';

interface IssuanceForm {
  projectId: string;
  vintage: string;
  type: 'exPost' | 'exAnte';
  amount: string;
  receivingOrganizationId: string;
  monitoringPeriodStart: string;
  monitoringPeriodEnd: string;
  verificationBodyId: string;
  bufferPercent: string;
}

const lastYear = String(new Date().getFullYear() - 1);
const EMPTY: IssuanceForm = {
  projectId: '',
  vintage: lastYear,
  type: 'exPost',
  amount: '',
  receivingOrganizationId: '',
  // Typed as the desk's locale writes dates (lib/localeDate.ts); sent as ISO dates.
  monitoringPeriodStart: formatLocaleDateInput(`${lastYear}-01-01`),
  monitoringPeriodEnd: formatLocaleDateInput(`${lastYear}-12-31`),
  verificationBodyId: '',
  bufferPercent: '',
};

/**
 * A buffer share typed in the desk's locale ("12.5" in en-US, "12,5" in de-DE) as basis points, or
 * null when it is not a percentage from 0 to 100 with at most two decimals. A separator the locale
 * does not use is refused, as for amounts: "12,5" in en-US is not read as 12.5.
 */
export function bufferBasisPoints(text: string, locale?: string): number | null {
  const read = parseLocaleDecimal(text, locale);
  if (!read.ok || read.fraction.length > 2 || read.whole.length > 3) return null;
  const points = Number(read.whole) * 100 + Number(read.fraction.padEnd(2, '0'));
  return points <= 10_000 ? points : null;
}

/** The problems of the form, by field (empty when it can be reviewed). */
export function issuanceProblems(form: IssuanceForm): Partial<Record<keyof IssuanceForm, string>> {
  const problems: Partial<Record<keyof IssuanceForm, string>> = {};
  if (!form.projectId) problems.projectId = 'Choose the project.';
  if (!/^\d{4}$/.test(form.vintage)) problems.vintage = 'Write the vintage as a four-digit year, for example 2023.';
  const amount = parseTonnes(form.amount);
  if (!amount.ok) problems.amount = amount.message;
  if (!form.verificationBodyId) problems.verificationBodyId = 'Choose the verification body.';
  const start = parseLocaleDate(form.monitoringPeriodStart);
  const end = parseLocaleDate(form.monitoringPeriodEnd);
  if (!start.ok) problems.monitoringPeriodStart = start.message;
  if (!end.ok) problems.monitoringPeriodEnd = end.message;
  else if (start.ok && end.iso < start.iso) problems.monitoringPeriodEnd = 'The period must not end before it starts.';
  if (form.bufferPercent.trim() !== '' && bufferBasisPoints(form.bufferPercent) === null)
    problems.bufferPercent = `A percentage from 0 to 100, with at most two decimals, for example ${formatPercentNumber(12.5)}.`;
  return problems;
}

/** The ISO date of a typed one (the text itself when it is none: never reviewed, the check refuses it first). */
const isoDateOr = (text: string) => {
  const read = parseLocaleDate(text);
  return read.ok ? read.iso : text;
};

/** The write's body (what the review previews and the confirmation sends). */
export function issuanceBody(form: IssuanceForm): Record<string, unknown> {
  const amount = parseTonnes(form.amount);
  return {
    projectId: form.projectId,
    vintage: form.vintage,
    type: form.type,
    amount: amount.ok ? amount.tonnes : 0,
    monitoringPeriodStart: isoDateOr(form.monitoringPeriodStart),
    monitoringPeriodEnd: isoDateOr(form.monitoringPeriodEnd),
    verificationBodyId: form.verificationBodyId,
    ...(form.receivingOrganizationId ? { receivingOrganizationId: form.receivingOrganizationId } : {}),
    ...(form.bufferPercent.trim() !== '' ? { bufferBasisPoints: bufferBasisPoints(form.bufferPercent) ?? 0 } : {}),
  };
}

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
  const proponentIds = useProjectProponentIds(form.projectId);
  const receivers = orgs.filter((o) => proponentIds?.has(o.id) && o.isVerified);
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
            <select
              value={form.projectId}
              onChange={(e) => setForm((f) => ({ ...f, projectId: e.target.value, receivingOrganizationId: '' }))}
            >
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
