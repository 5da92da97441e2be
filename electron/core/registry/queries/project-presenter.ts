// Project rows to the project resource (2.5). A whole page is presented with one batched query per
// related table (organizations, documents, benefits), never one query per project.
import type { Document, OrganizationSummary, Project } from '@shared/registry/resources';
import { iso } from '@platform/clock';
import type { InferResult, Kysely } from 'kysely';
import type { RegistryContext } from '../context';
import type { RegistryTables } from '../schema';
import { presentOrganizationSummary, projectUrls } from '../present';
import { groupBy, idList } from './id-list';

type Q = Kysely<RegistryTables>;

/** The columns a project is presented from: the projects row (`p`) and its lookups' titles. */
export const PROJECT_FIELDS = [
  'p.id',
  'p.num',
  'p.full_name',
  'p.description',
  'p.short_description',
  'p.registry',
  'p.status',
  'p.start_date',
  'p.crediting_period_start_date',
  'p.estimated_annual_mitigations',
  'p.city',
  'p.thumbnail',
  'p.country_code',
  'p.state',
  'p.lat',
  'p.lng',
  'p.sector_id',
  's.title as sector_title',
  'p.methodology_id',
  'm.title as methodology_title',
  'p.type_id',
  't.title as type_title',
  't.description as type_description',
] as const;

/** Projects (`p`) with their lookups (`s`, `m`, `t`) and PROJECT_FIELDS: callers add the condition. */
export function selectProjects(q: Q) {
  return q
    .selectFrom('projects as p')
    .innerJoin('sectors as s', 's.id', 'p.sector_id')
    .innerJoin('methodologies as m', 'm.id', 'p.methodology_id')
    .innerJoin('project_types as t', 't.id', 'p.type_id')
    .select(PROJECT_FIELDS);
}

/** A project as `selectProjects` reads it. */
export type SelectedProject = InferResult<ReturnType<typeof selectProjects>>[number];

/**
 * Which documents a view shows. The public views hide documents marked non-public (their URIs are
 * not for everyone); the internal views of examiners show all of them.
 */
export type DocumentVisibility = 'public' | 'all';

// One batched query per related table for a page of projects.
const projectOrganizations = (q: Q, ids: readonly string[]) =>
  q
    .selectFrom('project_organizations as po')
    .innerJoin('organizations as o', 'o.id', 'po.organization_id')
    .select(['po.project_id', 'po.role', 'o.id', 'o.full_name', 'o.logo'])
    .where('po.project_id', 'in', idList(ids))
    .orderBy('po.project_id')
    .orderBy('po.role')
    .orderBy('po.position');
const projectDocuments = (q: Q, ids: readonly string[], documents: DocumentVisibility) =>
  q
    .selectFrom('project_documents')
    .select(['id', 'project_id', 'uri', 'type', 'name', 'is_public', 'is_kml'])
    .where('project_id', 'in', idList(ids))
    .$if(documents === 'public', (query) => query.where('is_public', '=', 1))
    .orderBy('project_id')
    .orderBy('position');
const projectBenefits = (q: Q, ids: readonly string[]) =>
  q
    .selectFrom('project_benefits')
    .select(['project_id', 'benefit_id', 'title', 'checked', 'description'])
    .where('project_id', 'in', idList(ids))
    .orderBy('project_id')
    .orderBy('position');

type SelectedDocument = InferResult<ReturnType<typeof projectDocuments>>[number];

function presentDocument(row: SelectedDocument): Document {
  return { id: row.id, uri: row.uri, type: row.type, name: row.name, isPublic: row.is_public === 1 };
}

function parseMitigations(json: string): (string | null)[] {
  try {
    const value = JSON.parse(json) as unknown;
    // stored by createProject as an array of strings or nulls; anything else would be a bad row
    if (Array.isArray(value)) return value.map((v) => (v === null ? null : String(v)));
  } catch {
    // fall through: a malformed column shows as no estimates rather than failing the whole page
  }
  return [];
}

export function presentProjects(ctx: RegistryContext, rows: readonly SelectedProject[], documents: DocumentVisibility): Project[] {
  if (rows.length === 0) return [];
  const present = projectPresenter(ctx, rows, documents);
  return rows.map((row) => present(row, documents));
}

/**
 * Presents `rows` in either view with one batched query per related table for all of them (the
 * changes feed answers an examiner both views of the same projects). `documents` is the widest
 * view asked for later: 'public' reads public documents only, so only that view can be presented.
 * The public view of a row is its full view with the non-public documents left out, exactly as
 * the public query filters them (`is_public = 1`, in the same order), and the other fields shared.
 */
export function projectPresenter(
  ctx: RegistryContext,
  rows: readonly SelectedProject[],
  documents: DocumentVisibility,
): (row: SelectedProject, view: DocumentVisibility) => Project {
  const ids = rows.map((r) => r.id);
  const { db } = ctx;
  const organizations = groupBy(db.all(projectOrganizations(db.q, ids)), (r) => r.project_id);
  const documentRows = groupBy(db.all(projectDocuments(db.q, ids, documents)), (r) => r.project_id);
  const benefits = groupBy(db.all(projectBenefits(db.q, ids)), (r) => r.project_id);

  // What both views of a row share, made once per row.
  const sharedParts = new Map<string, ReturnType<typeof partsOf>>();
  const partsOf = (row: SelectedProject) => {
    const orgs = organizations.get(row.id) ?? [];
    const summaries = (role: 'proponent' | 'validator'): OrganizationSummary[] =>
      orgs.filter((o) => o.role === role).map((o) => presentOrganizationSummary(ctx, o));
    return {
      publicUrl: projectUrls(ctx, row.id).publicUrl,
      startDate: iso(row.start_date),
      creditingPeriodStartDate: iso(row.crediting_period_start_date),
      estimatedAnnualMitigations: parseMitigations(row.estimated_annual_mitigations),
      sector: { id: row.sector_id, title: row.sector_title },
      otherBenefits: (benefits.get(row.id) ?? []).map((b) => ({
        title: b.title,
        checked: b.checked === 1,
        id: b.benefit_id,
        description: b.description,
      })),
      proponents: summaries('proponent'),
      validators: summaries('validator'),
      methodology: { id: row.methodology_id, title: row.methodology_title },
      type: { id: row.type_id, title: row.type_title, description: row.type_description },
    };
  };

  return (row, view) => {
    if (view === 'all' && documents === 'public') throw new Error('projectPresenter: the full view needs documents read with "all"');
    let parts = sharedParts.get(row.id);
    if (!parts) sharedParts.set(row.id, (parts = partsOf(row)));
    const readDocs = documentRows.get(row.id) ?? [];
    const docs = view === documents ? readDocs : readDocs.filter((d) => d.is_public === 1);
    const kml = docs.find((d) => d.is_kml === 1);
    // Key order follows the table of 2.5; optional fields are left out when the column is null.
    const project: Project = {
      id: row.id,
      num: row.num,
      fullName: row.full_name,
      description: row.description,
      shortDescription: row.short_description,
      publicUrl: parts.publicUrl,
      registry: row.registry,
      status: row.status,
      startDate: parts.startDate,
      creditingPeriodStartDate: parts.creditingPeriodStartDate,
      estimatedAnnualMitigations: parts.estimatedAnnualMitigations,
      ...(row.city !== null ? { city: row.city } : {}),
      ...(row.thumbnail !== null ? { thumbnail: row.thumbnail } : {}),
      ...(row.country_code !== null ? { countryCode: row.country_code } : {}),
      ...(row.state !== null ? { state: row.state } : {}),
      sector: parts.sector,
      otherBenefits: parts.otherBenefits,
      proponents: parts.proponents,
      validators: parts.validators,
      methodology: parts.methodology,
      type: parts.type,
      ...(row.lat !== null && row.lng !== null ? { location: { lat: row.lat, lng: row.lng } } : {}),
      ...(kml ? { kmlFile: presentDocument(kml) } : {}),
      documentation: docs.filter((d) => d.is_kml === 0).map(presentDocument),
    };
    return project;
  };
}
