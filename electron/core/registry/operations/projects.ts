// Projects: created with their proponents, validators, documents and benefits, and moved through
// their statuses (PROJECT_STATUS_TRANSITIONS), each change recorded as a status_change event.
//
// Every operation validates its whole input first (a clear error, nothing changed) and makes its
// changes in one transaction; its input schema is in shared/registry/operator-inputs.ts (the CLI and the
// operator endpoints are built from it).
import { createHash } from 'node:crypto';
import { sql, type Updateable } from 'kysely';
import { z } from 'zod';
import { PROJECT_STATUS_TRANSITIONS, type ProjectStatus } from '@shared/registry/vocabulary';
import type { RegistryContext } from '../context';
import type { RegistryTables } from '../schema';
import { conflict, notFound } from '../errors';
import { parseInput } from '../input';
import { readSettings } from '../settings';
import { requireOrganization } from './lookups';
import { createProjectInput, changeProjectStatusInput, updateProjectInput } from '@shared/registry/operator-inputs';
export { createProjectInput, changeProjectStatusInput, updateProjectInput };

/** A deterministic contract address for a project that has none: sha256 of its id. */
function contractAddressFor(projectId: string): string {
  return `0x${createHash('sha256').update(`project-contract:${projectId}`).digest('hex').slice(0, 40)}`;
}

type ProjectInput = z.output<typeof createProjectInput>;
type DocumentInput = ProjectInput['documentation'][number];

/** The sector, methodology and type rows a project names (their titles follow the latest input). */
function upsertLookups(ctx: RegistryContext, p: Partial<Pick<ProjectInput, 'sector' | 'methodology' | 'type'>>): void {
  const { db } = ctx;
  if (p.sector) {
    db.run(
      db.q
        .insertInto('sectors')
        .values({ id: p.sector.id, title: p.sector.title })
        .onConflict((oc) => oc.column('id').doUpdateSet({ title: (eb) => eb.ref('excluded.title') })),
    );
  }
  if (p.methodology) {
    db.run(
      db.q
        .insertInto('methodologies')
        .values({ id: p.methodology.id, title: p.methodology.title })
        .onConflict((oc) => oc.column('id').doUpdateSet({ title: (eb) => eb.ref('excluded.title') })),
    );
  }
  if (p.type) {
    db.run(
      db.q
        .insertInto('project_types')
        .values({ id: p.type.id, title: p.type.title, description: p.type.description })
        .onConflict((oc) =>
          oc.column('id').doUpdateSet({ title: (eb) => eb.ref('excluded.title'), description: (eb) => eb.ref('excluded.description') }),
        ),
    );
  }
}

/** Replaces the project's proponents (the owner first) and validators, each checked to exist. */
function writeOrganizations(ctx: RegistryContext, projectId: string, proponents: string[], validatorIds: string[]): void {
  const { db } = ctx;
  for (const orgId of [...proponents, ...validatorIds]) requireOrganization(ctx, orgId);
  db.run(db.q.deleteFrom('project_organizations').where('project_id', '=', projectId));
  const rows = [
    ...proponents.map((orgId, i) => ({ project_id: projectId, organization_id: orgId, role: 'proponent' as const, position: i })),
    ...[...new Set(validatorIds)].map((orgId, i) => ({
      project_id: projectId,
      organization_id: orgId,
      role: 'validator' as const,
      position: i,
    })),
  ];
  for (const row of rows) db.run(db.q.insertInto('project_organizations').values(row));
}

/**
 * Replaces the project's documentation (`documentation` given) and its KML file (`kmlFile` given;
 * `null` removes it). A document keeps the id it is given, so an edit that resends it keeps its id.
 */
function writeDocuments(
  ctx: RegistryContext,
  projectId: string,
  documentation: DocumentInput[] | undefined,
  kmlFile: DocumentInput | null | undefined,
): void {
  const { db } = ctx;
  const documents: { document: DocumentInput; isKml: 0 | 1; position: number }[] = [];
  if (documentation !== undefined) {
    db.run(db.q.deleteFrom('project_documents').where('project_id', '=', projectId).where('is_kml', '=', 0));
    documents.push(...documentation.map((d, i) => ({ document: d, isKml: 0 as const, position: i })));
  }
  if (kmlFile !== undefined) {
    db.run(db.q.deleteFrom('project_documents').where('project_id', '=', projectId).where('is_kml', '=', 1));
    if (kmlFile !== null) documents.push({ document: kmlFile, isKml: 1, position: -1 });
  }
  for (const { document: d, isKml, position } of documents) {
    const id = d.id ?? ctx.newId();
    const elsewhere = db.first(db.q.selectFrom('project_documents').select('project_id').where('id', '=', id));
    if (elsewhere) throw conflict(`Document ${id} already belongs to ${elsewhere.project_id === projectId ? 'this' : 'another'} project`);
    db.run(
      db.q.insertInto('project_documents').values({
        id,
        project_id: projectId,
        uri: d.uri,
        type: d.type,
        name: d.name,
        is_public: d.isPublic ? 1 : 0,
        is_kml: isKml,
        position,
      }),
    );
  }
}

function writeBenefits(ctx: RegistryContext, projectId: string, benefits: ProjectInput['otherBenefits']): void {
  const { db } = ctx;
  db.run(db.q.deleteFrom('project_benefits').where('project_id', '=', projectId));
  benefits.forEach((b, i) => {
    db.run(
      db.q.insertInto('project_benefits').values({
        project_id: projectId,
        benefit_id: b.id,
        title: b.title,
        checked: b.checked ? 1 : 0,
        description: b.description,
        position: i,
      }),
    );
  });
}

export function createProject(
  ctx: RegistryContext,
  input: z.input<typeof createProjectInput>,
): { id: string; num: string; contractAddress: string } {
  const p = parseInput(createProjectInput, input);
  const { db } = ctx;
  const id = p.id ?? ctx.newId();
  const now = ctx.clock.now();
  const settings = readSettings(ctx);
  return db.transaction(() => {
    const projectWhere = db.q.selectFrom('projects').select('id');
    if (db.first(projectWhere.where('id', '=', id))) throw conflict(`Project ${id} already exists`);
    const proponents = [p.organizationId, ...p.proponentIds.filter((o) => o !== p.organizationId)];
    for (const orgId of [...proponents, ...p.validatorIds]) requireOrganization(ctx, orgId);
    // Spelled as the projects_by_number index spells it (SQLite matches the CAST's type name by its
    // text), so the highest number is read from the index's end instead of every project.
    const highest = db.first(db.q.selectFrom('projects').select((eb) => eb.fn.max(sql<number>`CAST(num AS INTEGER)`).as('n')));
    const num = p.num ?? String((highest?.n ?? 0) + 1);
    if (db.first(projectWhere.where('num', '=', num))) throw conflict(`Project number ${num} is already taken`);
    const contractAddress = p.contractAddress ?? contractAddressFor(id);
    if (db.first(projectWhere.where('contract_address', '=', contractAddress))) {
      throw conflict(`Contract address ${contractAddress} is already used by another project`);
    }
    upsertLookups(ctx, p);
    db.run(
      db.q.insertInto('projects').values({
        id,
        num,
        full_name: p.fullName,
        description: p.description,
        short_description: p.shortDescription,
        registry: settings.name,
        status: p.status,
        start_date: p.startDate,
        crediting_period_start_date: p.creditingPeriodStartDate,
        estimated_annual_mitigations: JSON.stringify(p.estimatedAnnualMitigations),
        city: p.city ?? null,
        thumbnail: p.thumbnail ?? null,
        country_code: p.countryCode,
        state: p.state ?? null,
        sector_id: p.sector.id,
        methodology_id: p.methodology.id,
        type_id: p.type.id,
        lat: p.location?.lat ?? null,
        lng: p.location?.lng ?? null,
        organization_id: p.organizationId,
        contract_address: contractAddress,
        created_at: now,
        updated_at: now,
      }),
    );
    writeOrganizations(ctx, id, proponents, p.validatorIds);
    writeDocuments(ctx, id, p.documentation, p.kmlFile);
    writeBenefits(ctx, id, p.otherBenefits);
    return { id, num, contractAddress };
  });
}

export function changeProjectStatus(
  ctx: RegistryContext,
  input: z.input<typeof changeProjectStatusInput>,
): { id: string; status: ProjectStatus; previousStatus: ProjectStatus; eventId: string } {
  const o = parseInput(changeProjectStatusInput, input);
  const { db } = ctx;
  return db.transaction(() => {
    const row = db.first(db.q.selectFrom('projects').select('status').where('id', '=', o.projectId));
    if (!row) throw notFound(`Project ${o.projectId} not found`);
    const allowed = PROJECT_STATUS_TRANSITIONS[row.status] ?? [];
    if (!allowed.includes(o.status)) {
      throw conflict(`A ${row.status} project cannot become ${o.status} (allowed: ${allowed.join(', ') || 'none'})`);
    }
    const now = ctx.clock.now();
    const eventId = ctx.newId();
    db.run(db.q.updateTable('projects').set({ status: o.status, updated_at: now }).where('id', '=', o.projectId));
    db.run(
      db.q.insertInto('project_events').values({
        id: eventId,
        project_id: o.projectId,
        type: 'status_change',
        created_at: now,
        project_status: o.status,
        previous_project_status: row.status,
        // left to the column's default when empty, so a change without one needs no newer schema
        ...(o.comment !== '' ? { comment: o.comment } : {}),
      }),
    );
    return { id: o.projectId, status: o.status, previousStatus: row.status, eventId };
  });
}

/** Edits a draft project; answers the fields it changed (the audit entry keeps them with the input). */
export function updateProject(
  ctx: RegistryContext,
  input: z.input<typeof updateProjectInput>,
): { id: string; num: string; changed: string[] } {
  const p = parseInput(updateProjectInput, input);
  const { db } = ctx;
  return db.transaction(() => {
    const row = db.first(db.q.selectFrom('projects').select(['num', 'status', 'organization_id']).where('id', '=', p.projectId));
    if (!row) throw notFound(`Project ${p.projectId} not found`);
    if (row.status !== 'draft') {
      throw conflict(
        `Only a draft project can be edited; project ${row.num} is ${row.status} (move it back to draft first, where allowed)`,
      );
    }
    const changed = Object.keys(p).filter((k) => k !== 'projectId' && p[k as keyof typeof p] !== undefined);
    upsertLookups(ctx, p);
    const set: Updateable<RegistryTables['projects']> = {};
    if (p.fullName !== undefined) set.full_name = p.fullName;
    if (p.description !== undefined) set.description = p.description;
    if (p.shortDescription !== undefined) set.short_description = p.shortDescription;
    if (p.startDate !== undefined) set.start_date = p.startDate;
    if (p.creditingPeriodStartDate !== undefined) set.crediting_period_start_date = p.creditingPeriodStartDate;
    if (p.estimatedAnnualMitigations !== undefined) set.estimated_annual_mitigations = JSON.stringify(p.estimatedAnnualMitigations);
    if (p.city !== undefined) set.city = p.city;
    if (p.thumbnail !== undefined) set.thumbnail = p.thumbnail;
    if (p.countryCode !== undefined) set.country_code = p.countryCode;
    if (p.state !== undefined) set.state = p.state;
    if (p.sector !== undefined) set.sector_id = p.sector.id;
    if (p.methodology !== undefined) set.methodology_id = p.methodology.id;
    if (p.type !== undefined) set.type_id = p.type.id;
    if (p.location !== undefined) {
      set.lat = p.location?.lat ?? null;
      set.lng = p.location?.lng ?? null;
    }
    if (p.organizationId !== undefined) set.organization_id = p.organizationId;
    if (p.organizationId !== undefined || p.proponentIds !== undefined || p.validatorIds !== undefined) {
      const current = db.all(
        db.q
          .selectFrom('project_organizations')
          .select(['organization_id', 'role'])
          .where('project_id', '=', p.projectId)
          .orderBy('role')
          .orderBy('position'),
      );
      const owner = p.organizationId ?? row.organization_id;
      const others = p.proponentIds ?? current.filter((o) => o.role === 'proponent').map((o) => o.organization_id);
      const validators = p.validatorIds ?? current.filter((o) => o.role === 'validator').map((o) => o.organization_id);
      writeOrganizations(ctx, p.projectId, [owner, ...new Set(others.filter((o) => o !== owner))], validators);
    }
    writeDocuments(ctx, p.projectId, p.documentation, p.kmlFile);
    if (p.otherBenefits !== undefined) writeBenefits(ctx, p.projectId, p.otherBenefits);
    db.run(
      db.q
        .updateTable('projects')
        .set({ ...set, updated_at: ctx.clock.now() })
        .where('id', '=', p.projectId),
    );
    return { id: p.projectId, num: row.num, changed };
  });
}
