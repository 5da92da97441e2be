// The operator's organization edit form: its fields as the inputs hold them, filled from the
// organization as read, and the edit it makes: only the changed fields, `null` clearing an optional
// one, checked by the registry's own schema; with each change as before → after for the review.
import type { z } from 'zod';
import { updateOrganizationBody } from '@shared/registry/operator-inputs';
import { ORGANIZATION_TYPES, type OrganizationType } from '@shared/registry/vocabulary';
import { countryName, humanize } from '@renderer/lib/format';

export interface OrganizationForm {
  fullName: string;
  type: OrganizationType;
  countryCode: string;
  city: string;
  zip: string;
  physicalAddress: string;
  registrationNumber: string;
  website: string;
  logo: string;
  industryCode: string;
  industryName: string;
  isPublic: boolean;
}

/** What the form needs of the operator's organization. */
export interface EditableOrganization {
  fullName: string;
  type: string;
  countryCode: string;
  city: string;
  zip: string;
  physicalAddress: string;
  registrationNumber: string;
  website: string;
  logo: string;
  organizationIndustries: { code: string; name: string };
  isPublic: boolean;
}

export function formFromOrganization(o: EditableOrganization): OrganizationForm {
  return {
    fullName: o.fullName,
    type: (ORGANIZATION_TYPES as readonly string[]).includes(o.type) ? (o.type as OrganizationType) : 'projectProponent',
    countryCode: o.countryCode,
    city: o.city,
    zip: o.zip,
    physicalAddress: o.physicalAddress,
    registrationNumber: o.registrationNumber,
    website: o.website,
    logo: o.logo,
    industryCode: o.organizationIndustries.code,
    industryName: o.organizationIndustries.name,
    isPublic: o.isPublic,
  };
}

/** One changed field as the review shows it. */
export interface OrganizationChange {
  field: keyof z.input<typeof updateOrganizationBody>;
  label: string;
  before: string;
  after: string;
}

export type OrganizationEdit =
  | { ok: true; body: z.input<typeof updateOrganizationBody>; changes: OrganizationChange[] }
  /** Each problem names the form field it is about (a key of OrganizationForm) and says it as a sentence. */
  | { ok: false; errors: { field: keyof OrganizationForm; message: string }[] }
  | { ok: 'unchanged' };

const OPTIONAL_TEXT = [
  ['city', 'City'],
  ['zip', 'Postal code'],
  ['physicalAddress', 'Address'],
  ['registrationNumber', 'Registration number'],
  ['website', 'Website'],
  ['logo', 'Logo URL'],
] as const;

/** "must not be empty" → "Must not be empty." */
const asSentence = (message: string) => {
  const text = message.charAt(0).toUpperCase() + message.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
};
const place = (code: string) => (code === '' ? '' : `${countryName(code)} (${code})`);
const yesNo = (v: boolean) => (v ? 'Yes' : 'No');
const industries = (code: string, name: string) => [code, name].filter((s) => s !== '').join(' · ');

/**
 * The edit of `original` that `form` makes: the changed fields only (text compared trimmed, the
 * country upper-cased), an optional field emptied sent as `null` (the registry clears it).
 */
export function organizationEdit(form: OrganizationForm, original: OrganizationForm): OrganizationEdit {
  const body: Record<string, unknown> = {};
  const changes: OrganizationChange[] = [];
  const change = (field: OrganizationChange['field'], label: string, value: unknown, before: string, after: string) => {
    body[field] = value;
    changes.push({ field, label, before, after });
  };
  const fullName = form.fullName.trim();
  if (fullName !== original.fullName.trim()) change('fullName', 'Name', fullName, original.fullName, fullName);
  if (form.type !== original.type) change('type', 'Type', form.type, humanize(original.type), humanize(form.type));
  const country = form.countryCode.trim().toUpperCase();
  const before = original.countryCode.trim().toUpperCase();
  if (country !== before) change('countryCode', 'Country', country, place(before), place(country));
  for (const [field, label] of OPTIONAL_TEXT) {
    const now = form[field].trim();
    const before = original[field].trim();
    if (now !== before) change(field, label, now === '' ? null : now, before, now);
  }
  const code = form.industryCode.trim();
  const name = form.industryName.trim();
  if (code !== original.industryCode.trim() || name !== original.industryName.trim()) {
    change(
      'organizationIndustries',
      'Industry',
      code === '' && name === '' ? null : { code, name },
      industries(original.industryCode.trim(), original.industryName.trim()),
      industries(code, name),
    );
  }
  if (form.isPublic !== original.isPublic) change('isPublic', 'Public', form.isPublic, yesNo(original.isPublic), yesNo(form.isPublic));
  if (changes.length === 0) return { ok: 'unchanged' };
  const parsed = updateOrganizationBody.safeParse(body);
  if (!parsed.success) {
    return {
      ok: false,
      errors: parsed.error.issues.map((i) => {
        const field = String(i.path[0] ?? '');
        // the industry is one body field made of two inputs
        const formField: keyof OrganizationForm =
          field === 'organizationIndustries' ? (i.path[1] === 'name' ? 'industryName' : 'industryCode') : (field as keyof OrganizationForm);
        return { field: formField, message: asSentence(i.message) };
      }),
    };
  }
  return { ok: true, body, changes };
}
