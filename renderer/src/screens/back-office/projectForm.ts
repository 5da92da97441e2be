// The operator's project form: every field of the interface's project (2.5) with its documents and
// location, as text the user edits, and the request bodies it becomes: the whole project for a new
// draft, and for an edit only the fields that differ from the project as it was read (the registry
// answers which it changed). Checked by the registry's own input schemas before anything is sent.
import type { z } from 'zod';
import { createProjectInput, updateProjectBody } from '@shared/registry/operator-inputs';
import type { Project } from '@shared/registry/resources';
import { plainRefusal } from '@renderer/components/backOffice/plainRefusal';
import { formatLocaleDateInput, parseLocaleDate } from '@renderer/lib/localeDate';
import { localeNumberText, readCoordinate, readMitigation } from './projectNumbers';

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
const TYPED_LABELS = ['Start date', 'Crediting period start', 'Latitude', 'Longitude', 'Estimated annual mitigations'];
const DATE_FIELDS = [
  ['startDate', 'Start date'],
  ['creditingPeriodStartDate', 'Crediting period start'],
] as const;

/**
 * Dates and numbers typed that the desk's locale does not read, in words (the schema alone would say
 * "startDate: Invalid input" or "Latitude: Invalid input: expected number, received NaN").
 */
function typedErrors(form: ProjectForm): string[] {
  const dates = DATE_FIELDS.flatMap(([key, label]) => {
    const read = parseLocaleDate(form[key]);
    return read.ok ? [] : [`${label}: ${read.message}`];
  });
  const located = form.lat.trim() !== '' || form.lng.trim() !== '';
  const coordinates = located
    ? (
        [
          ['Latitude', form.lat, 90],
          ['Longitude', form.lng, 180],
        ] as const
      ).flatMap(([label, text, limit]) => {
        const read = readCoordinate(text, limit);
        return read.ok ? [] : [`${label}: ${read.message}`];
      })
    : [];
  const mitigations = form.estimatedAnnualMitigations.split('\n').flatMap((line, i) => {
    const read = line.trim() === '' ? null : readMitigation(line);
    return read && !read.ok ? [`Estimated annual mitigations, line ${i + 1}: ${read.message}`] : [];
  });
  return [...dates, ...coordinates, ...mitigations];
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
    estimatedAnnualMitigations: p.estimatedAnnualMitigations.map((m) => (m === null ? '' : localeNumberText(m))).join('\n'),
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
    lat: p.location ? localeNumberText(p.location.lat) : '',
    lng: p.location ? localeNumberText(p.location.lng) : '',
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
  const coordinate = (text: string, limit: 90 | 180) => {
    const read = readCoordinate(text, limit);
    return read.ok ? read.value : Number.NaN;
  };
  const location =
    form.lat.trim() === '' && form.lng.trim() === '' ? null : { lat: coordinate(form.lat, 90), lng: coordinate(form.lng, 180) };
  const mitigation = (line: string) => {
    const read = line.trim() === '' ? null : readMitigation(line);
    return read === null ? null : read.ok ? read.value : line.trim();
  };
  const mitigations = form.estimatedAnnualMitigations.trim() === '' ? [] : form.estimatedAnnualMitigations.split('\n').map(mitigation);
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

/** Fields chosen as a whole from the registry's vocabulary (ProjectVocabularyFields). */
const CHOSEN = ['sector', 'methodology', 'type'];

type Checked<T> = { ok: true; body: T } | { ok: false; errors: string[] };

function check<S extends z.ZodType>(schema: S, body: unknown): Checked<z.input<S>> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return { ok: true, body: body as z.input<S> };
  // A classification's id and title are one choice on the form: said by its name ("Sector: …"),
  // not as "Number: must not be empty" and "Title: must not be empty", which name no field on it.
  const pathOf = (path: PropertyKey[]) => (CHOSEN.includes(String(path[0])) ? path.slice(0, 1) : path);
  const lines = parsed.error.issues.map((i) => {
    const path = pathOf(i.path);
    return plainRefusal(`${path.length ? `${path.join('.')}: ` : ''}${i.message}`, FORM_LABELS);
  });
  return { ok: false, errors: [...new Set(lines)] };
}

/** The typed problems first, then the schema's about the other fields (its words for these add nothing). */
function withTyped<T>(typed: string[], checked: Checked<T>): Checked<T> {
  if (typed.length === 0) return checked;
  const about = (line: string) => TYPED_LABELS.some((label) => line.startsWith(label));
  return { ok: false, errors: [...typed, ...(checked.ok ? [] : checked.errors.filter((line) => !about(line)))] };
}

/** The body of a new draft; optional fields left empty are left out. */
export function createBody(form: ProjectForm): Checked<z.input<typeof createProjectInput>> {
  const all = fields(form);
  const body = Object.fromEntries(Object.entries(all).filter(([, v]) => v !== null)) as Record<string, unknown>;
  return withTyped(typedErrors(form), check(createProjectInput, { ...body, status: 'draft' }));
}

/** The fields an edit changes against the project as it was read; `null` clears an optional one. */
export function updateBody(form: ProjectForm, original: ProjectForm): Checked<z.input<typeof updateProjectBody>> | { ok: 'unchanged' } {
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
  return withTyped(typedErrors(form), check(updateProjectBody, changed));
}
