// The operator's project form: every field of the interface's project (2.5) with its documents and
// location, as text the user edits, and the request bodies it becomes: the whole project for a new
// draft, and for an edit only the fields that differ from the project as it was read (the registry
// answers which it changed). Checked by the registry's own input schemas before anything is sent.
import type { z } from 'zod';
import { createProjectInput, updateProjectBody } from '@shared/registry/operator-inputs';
import type { Project } from '@shared/registry/resources';
import { plainRefusal } from '@renderer/components/backOffice/plainRefusal';
import { formatLocaleDateInput, parseLocaleDate } from '@renderer/lib/localeDate';

export interface DocumentForm {
  /** Kept from the project read, so an edit that keeps a document keeps its id. */
  id?: string;
  name: string;
  type: string;
  uri: string;
  isPublic: boolean;
}

export interface BenefitForm {
  id: string;
  title: string;
  checked: boolean;
  description: string;
}

export interface ProjectForm {
  fullName: string;
  shortDescription: string;
  description: string;
  startDate: string;
  creditingPeriodStartDate: string;
  /** One estimate (tCO2e) per line; an empty line is an unknown year. */
  estimatedAnnualMitigations: string;
  countryCode: string;
  state: string;
  city: string;
  thumbnail: string;
  sectorId: string;
  sectorTitle: string;
  methodologyId: string;
  methodologyTitle: string;
  typeId: string;
  typeTitle: string;
  typeDescription: string;
  lat: string;
  lng: string;
  organizationId: string;
  /** Further proponents and the validators, organization ids. */
  proponentIds: string[];
  validatorIds: string[];
  documentation: DocumentForm[];
  kmlFile: DocumentForm | null;
  otherBenefits: BenefitForm[];
}

export const emptyDocument = (): DocumentForm => ({ name: '', type: '', uri: '', isPublic: true });

export function emptyProjectForm(organizationId = ''): ProjectForm {
  return {
    fullName: '',
    shortDescription: '',
    description: '',
    startDate: '',
    creditingPeriodStartDate: '',
    estimatedAnnualMitigations: '',
    countryCode: '',
    state: '',
    city: '',
    thumbnail: '',
    sectorId: '',
    sectorTitle: '',
    methodologyId: '',
    methodologyTitle: '',
    typeId: '',
    typeTitle: '',
    typeDescription: '',
    lat: '',
    lng: '',
    organizationId,
    proponentIds: [],
    validatorIds: [],
    documentation: [],
    kmlFile: null,
    otherBenefits: [],
  };
}

/** A registry date as the form shows it: the day, as the desk's locale writes it (lib/localeDate.ts). */
const dateText = (iso: string) => formatLocaleDateInput(iso.slice(0, 10));
/** A typed date as the registry takes it (ISO); text that is no date is left for the check to refuse. */
const isoDate = (text: string) => {
  const read = parseLocaleDate(text);
  return read.ok ? read.iso : text.trim();
};
const DATE_FIELDS = [
  ['startDate', 'Start date'],
  ['creditingPeriodStartDate', 'Crediting period start'],
] as const;

/** Dates typed that are not dates, in words (the schema alone would say "startDate: Invalid input"). */
function dateErrors(form: ProjectForm): string[] {
  return DATE_FIELDS.flatMap(([key, label]) => {
    const read = parseLocaleDate(form[key]);
    return read.ok ? [] : [`${label}: ${read.message}`];
  });
}
const documentForm = (d: { id: string; name: string; type: string; uri: string; isPublic: boolean }): DocumentForm => ({
  id: d.id,
  name: d.name,
  type: d.type,
  uri: d.uri,
  isPublic: d.isPublic,
});

/** The form of a project as the registry answers it (the operator's `details`). */
export function formFromProject(p: Project): ProjectForm {
  const [owner, ...others] = p.proponents.map((o) => o.id);
  return {
    fullName: p.fullName,
    shortDescription: p.shortDescription,
    description: p.description,
    startDate: dateText(p.startDate),
    creditingPeriodStartDate: dateText(p.creditingPeriodStartDate),
    estimatedAnnualMitigations: p.estimatedAnnualMitigations.map((m) => m ?? '').join('\n'),
    countryCode: p.countryCode ?? '',
    state: p.state ?? '',
    city: p.city ?? '',
    thumbnail: p.thumbnail ?? '',
    sectorId: p.sector.id,
    sectorTitle: p.sector.title,
    methodologyId: p.methodology.id,
    methodologyTitle: p.methodology.title,
    typeId: p.type.id,
    typeTitle: p.type.title,
    typeDescription: p.type.description,
    lat: p.location ? String(p.location.lat) : '',
    lng: p.location ? String(p.location.lng) : '',
    organizationId: owner ?? '',
    proponentIds: others,
    validatorIds: p.validators.map((o) => o.id),
    documentation: p.documentation.map(documentForm),
    kmlFile: p.kmlFile ? documentForm(p.kmlFile) : null,
    otherBenefits: p.otherBenefits.map((b) => ({ id: String(b.id), title: b.title, checked: b.checked, description: b.description })),
  };
}

const number = (text: string): number => (text.trim() === '' ? Number.NaN : Number(text.trim()));
const orNull = (text: string) => (text.trim() === '' ? null : text.trim());

const documentBody = (d: DocumentForm) => ({
  ...(d.id ? { id: d.id } : {}),
  uri: d.uri.trim(),
  type: d.type.trim(),
  name: d.name.trim(),
  isPublic: d.isPublic,
});

/** Every field of the form as the registry's input (unparsed: the schemas say what is wrong). */
function fields(form: ProjectForm) {
  const location = form.lat.trim() === '' && form.lng.trim() === '' ? null : { lat: number(form.lat), lng: number(form.lng) };
  const mitigations = form.estimatedAnnualMitigations.trim() === '' ? [] : form.estimatedAnnualMitigations.split('\n').map(orNull);
  return {
    fullName: form.fullName.trim(),
    description: form.description.trim(),
    shortDescription: form.shortDescription.trim(),
    startDate: isoDate(form.startDate),
    creditingPeriodStartDate: isoDate(form.creditingPeriodStartDate),
    estimatedAnnualMitigations: mitigations,
    city: orNull(form.city),
    thumbnail: orNull(form.thumbnail),
    countryCode: form.countryCode.trim().toUpperCase(),
    state: orNull(form.state),
    sector: { id: form.sectorId.trim(), title: form.sectorTitle.trim() },
    methodology: { id: form.methodologyId.trim(), title: form.methodologyTitle.trim() },
    type: { id: form.typeId.trim(), title: form.typeTitle.trim(), description: form.typeDescription.trim() },
    location,
    organizationId: form.organizationId,
    proponentIds: form.proponentIds.filter((id) => id !== '' && id !== form.organizationId),
    validatorIds: form.validatorIds.filter((id) => id !== ''),
    documentation: form.documentation.map(documentBody),
    kmlFile: form.kmlFile ? documentBody(form.kmlFile) : null,
    otherBenefits: form.otherBenefits.map((b) => ({
      id: number(b.id),
      title: b.title.trim(),
      checked: b.checked,
      description: b.description.trim(),
    })),
  };
}

/** The form's labels of fields whose name in the request reads differently. */
const FORM_LABELS: Record<string, string> = { fullName: 'Project name', lat: 'Latitude', lng: 'Longitude', id: 'Number' };

type Checked<T> = { ok: true; body: T } | { ok: false; errors: string[] };

function check<S extends z.ZodType>(schema: S, body: unknown): Checked<z.input<S>> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return { ok: true, body: body as z.input<S> };
  const lines = parsed.error.issues.map((i) => plainRefusal(`${i.path.length ? `${i.path.join('.')}: ` : ''}${i.message}`, FORM_LABELS));
  return { ok: false, errors: [...new Set(lines)] };
}

/** The body of a new draft; optional fields left empty are left out. */
export function createBody(form: ProjectForm): Checked<z.input<typeof createProjectInput>> {
  const dates = dateErrors(form);
  if (dates.length > 0) return { ok: false, errors: dates };
  const all = fields(form);
  const body = Object.fromEntries(Object.entries(all).filter(([, v]) => v !== null)) as Record<string, unknown>;
  return check(createProjectInput, { ...body, status: 'draft' });
}

/** The fields an edit changes against the project as it was read; `null` clears an optional one. */
export function updateBody(form: ProjectForm, original: ProjectForm): Checked<z.input<typeof updateProjectBody>> | { ok: 'unchanged' } {
  const dates = dateErrors(form);
  if (dates.length > 0) return { ok: false, errors: dates };
  const now = fields(form);
  const before = fields(original);
  const changed = Object.fromEntries(
    Object.entries(now).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(before[key as keyof typeof before])),
  );
  // the owner and the other proponents are one list on the registry: resend both when either moved
  if ('organizationId' in changed || 'proponentIds' in changed) {
    changed.organizationId = now.organizationId;
    changed.proponentIds = now.proponentIds;
  }
  if (Object.keys(changed).length === 0) return { ok: 'unchanged' };
  return check(updateProjectBody, changed);
}
