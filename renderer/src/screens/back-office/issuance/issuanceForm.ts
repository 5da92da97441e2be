// The issuance form's model: its values (amounts and dates typed in the desk's locale), their
// problems by field, and the write's body they make.
import { formatLocaleDateInput, parseLocaleDate } from '@renderer/lib/localeDate';
import { parseTonnes } from '@renderer/lib/decimal';
import { parseLocaleDecimal } from '@renderer/lib/localeAmount';
import { formatPercentNumber } from '@renderer/lib/format';

export interface IssuanceForm {
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
export const EMPTY: IssuanceForm = {
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
