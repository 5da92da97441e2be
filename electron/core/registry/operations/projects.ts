// Projects: created with their proponents, validators, documents and benefits, and moved through
// their statuses (PROJECT_STATUS_TRANSITIONS), each change recorded as a status_change event.
//
// Every operation validates its whole input first (a clear error, nothing changed) and makes its
// changes in one transaction; its input schema is in shared/registry/operator-inputs.ts (the CLI and the
// operator endpoints are built from it).
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { z } from 'zod';
import { PROJECT_STATUS_TRANSITIONS, type ProjectStatus } from '../../../../shared/registry/vocabulary';
import type { RegistryContext } from '../context';
import { conflict, notFound } from '../errors';
import { parseInput } from '../input';
import { readSettings } from '../settings';
import { requireOrganization } from './lookups';
import { createProjectInput, changeProjectStatusInput } from '../../../../shared/registry/operator-inputs';
export { createProjectInput, changeProjectStatusInput };

/** A deterministic contract address for a project that has none: sha256 of its id. */
function contractAddressFor(projectId: string): string {
  return `0x${createHash('sha256').update(`project-contract:${projectId}`).digest('hex').slice(0, 40)}`;
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
    db.run(
      db.q
        .insertInto('sectors')
        .values({ id: p.sector.id, title: p.sector.title })
        .onConflict((oc) => oc.column('id').doUpdateSet({ title: (eb) => eb.ref('excluded.title') })),
    );
    db.run(
      db.q
        .insertInto('methodologies')
        .values({ id: p.methodology.id, title: p.methodology.title })
        .onConflict((oc) => oc.column('id').doUpdateSet({ title: (eb) => eb.ref('excluded.title') })),
    );
    db.run(
      db.q
        .insertInto('project_types')
        .values({ id: p.type.id, title: p.type.title, description: p.type.description })
        .onConflict((oc) =>
          oc.column('id').doUpdateSet({ title: (eb) => eb.ref('excluded.title'), description: (eb) => eb.ref('excluded.description') }),
        ),
    );
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
    const organizations = [
      ...proponents.map((orgId, i) => ({ project_id: id, organization_id: orgId, role: 'proponent' as const, position: i })),
      ...[...new Set(p.validatorIds)].map((orgId, i) => ({
        project_id: id,
        organization_id: orgId,
        role: 'validator' as const,
        position: i,
      })),
    ];
    for (const row of organizations) db.run(db.q.insertInto('project_organizations').values(row));
    const documents = [
      ...p.documentation.map((d, i) => ({ document: d, isKml: 0 as const, position: i })),
      ...(p.kmlFile ? [{ document: p.kmlFile, isKml: 1 as const, position: -1 }] : []),
    ];
    for (const { document: d, isKml, position } of documents) {
      db.run(
        db.q.insertInto('project_documents').values({
          id: d.id ?? ctx.newId(),
          project_id: id,
          uri: d.uri,
          type: d.type,
          name: d.name,
          is_public: d.isPublic ? 1 : 0,
          is_kml: isKml,
          position,
        }),
      );
    }
    p.otherBenefits.forEach((b, i) => {
      db.run(
        db.q.insertInto('project_benefits').values({
          project_id: id,
          benefit_id: b.id,
          title: b.title,
          checked: b.checked ? 1 : 0,
          description: b.description,
          position: i,
        }),
      );
    });
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
      }),
    );
    return { id: o.projectId, status: o.status, previousStatus: row.status, eventId };
  });
}
