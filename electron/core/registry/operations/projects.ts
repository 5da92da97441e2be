// Projects: created with their proponents, validators, documents and benefits, and moved through
// their statuses (PROJECT_STATUS_TRANSITIONS), each change recorded as a status_change event.
//
// Every operation validates its whole input first (a clear error, nothing changed) and makes its
// changes in one transaction; its input schema stands beside it (the CLI builds its flags from it).
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { CONTRACT_ADDRESS } from '../../../../shared/registry/identifiers';
import { PROJECT_STATUSES, PROJECT_STATUS_TRANSITIONS, type ProjectStatus } from '../../../../shared/registry/vocabulary';
import type { RegistryContext } from '../context';
import { conflict, notFound } from '../errors';
import { countryCode, dateInput, parseInput, requiredText, text } from '../input';
import { readSettings } from '../settings';
import { requireOrganization } from './lookups';

const documentInput = z.object({
  id: z.uuid().optional(),
  uri: requiredText(1000),
  type: requiredText(60),
  name: requiredText(300),
  isPublic: z.boolean().default(true),
});

export const createProjectInput = z.object({
  id: z.uuid().optional(),
  num: z
    .string()
    .regex(/^\d{1,12}$/, 'must be a string of digits')
    .optional(),
  fullName: requiredText(300),
  description: text(20_000).default(''),
  shortDescription: text(1000).default(''),
  status: z.enum(PROJECT_STATUSES).default('draft'),
  startDate: dateInput,
  creditingPeriodStartDate: dateInput,
  estimatedAnnualMitigations: z.array(z.string().nullable()).default([]),
  city: text(100).optional(),
  thumbnail: text(1000).optional(),
  countryCode: countryCode,
  state: text(100).optional(),
  sector: z.object({ id: requiredText(60), title: requiredText(200) }),
  methodology: z.object({ id: requiredText(60), title: requiredText(300) }),
  type: z.object({ id: requiredText(60), title: requiredText(200), description: text(2000).default('') }),
  location: z.object({ lat: z.number().min(-90).max(90), lng: z.number().min(-180).max(180) }).optional(),
  /** The owning proponent organization; listed first among the proponents. */
  organizationId: requiredText(),
  proponentIds: z.array(requiredText()).default([]),
  validatorIds: z.array(requiredText()).default([]),
  documentation: z.array(documentInput).default([]),
  kmlFile: documentInput.optional(),
  otherBenefits: z
    .array(z.object({ id: z.number().int(), title: requiredText(200), checked: z.boolean(), description: text(2000).default('') }))
    .default([]),
  contractAddress: z.string().regex(CONTRACT_ADDRESS, 'must be a lowercase 0x contract address').optional(),
});

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
    if (db.prepare('SELECT 1 FROM projects WHERE id = ?').get(id)) throw conflict(`Project ${id} already exists`);
    const proponents = [p.organizationId, ...p.proponentIds.filter((o) => o !== p.organizationId)];
    for (const orgId of [...proponents, ...p.validatorIds]) requireOrganization(ctx, orgId);
    const num =
      p.num ?? String(((db.prepare('SELECT MAX(CAST(num AS INTEGER)) AS n FROM projects').get() as { n: number | null }).n ?? 0) + 1);
    if (db.prepare('SELECT 1 FROM projects WHERE num = ?').get(num)) throw conflict(`Project number ${num} is already taken`);
    const contractAddress = p.contractAddress ?? contractAddressFor(id);
    if (db.prepare('SELECT 1 FROM projects WHERE contract_address = ?').get(contractAddress)) {
      throw conflict(`Contract address ${contractAddress} is already used by another project`);
    }
    db.prepare('INSERT INTO sectors (id, title) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET title = excluded.title').run(
      p.sector.id,
      p.sector.title,
    );
    db.prepare('INSERT INTO methodologies (id, title) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET title = excluded.title').run(
      p.methodology.id,
      p.methodology.title,
    );
    db.prepare(
      'INSERT INTO project_types (id, title, description) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET title = excluded.title, description = excluded.description',
    ).run(p.type.id, p.type.title, p.type.description);
    db.prepare(
      `INSERT INTO projects (id, num, full_name, description, short_description, registry, status, start_date, crediting_period_start_date,
         estimated_annual_mitigations, city, thumbnail, country_code, state, sector_id, methodology_id, type_id, lat, lng,
         organization_id, contract_address, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      id,
      num,
      p.fullName,
      p.description,
      p.shortDescription,
      settings.name,
      p.status,
      p.startDate,
      p.creditingPeriodStartDate,
      JSON.stringify(p.estimatedAnnualMitigations),
      p.city ?? null,
      p.thumbnail ?? null,
      p.countryCode,
      p.state ?? null,
      p.sector.id,
      p.methodology.id,
      p.type.id,
      p.location?.lat ?? null,
      p.location?.lng ?? null,
      p.organizationId,
      contractAddress,
      now,
      now,
    );
    const addOrg = db.prepare('INSERT INTO project_organizations (project_id, organization_id, role, position) VALUES (?, ?, ?, ?)');
    proponents.forEach((orgId, i) => addOrg.run(id, orgId, 'proponent', i));
    [...new Set(p.validatorIds)].forEach((orgId, i) => addOrg.run(id, orgId, 'validator', i));
    const addDoc = db.prepare(
      'INSERT INTO project_documents (id, project_id, uri, type, name, is_public, is_kml, position) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    p.documentation.forEach((d, i) => addDoc.run(d.id ?? ctx.newId(), id, d.uri, d.type, d.name, d.isPublic ? 1 : 0, 0, i));
    if (p.kmlFile)
      addDoc.run(p.kmlFile.id ?? ctx.newId(), id, p.kmlFile.uri, p.kmlFile.type, p.kmlFile.name, p.kmlFile.isPublic ? 1 : 0, 1, -1);
    const addBenefit = db.prepare(
      'INSERT INTO project_benefits (project_id, benefit_id, title, checked, description, position) VALUES (?, ?, ?, ?, ?, ?)',
    );
    p.otherBenefits.forEach((b, i) => addBenefit.run(id, b.id, b.title, b.checked ? 1 : 0, b.description, i));
    return { id, num, contractAddress };
  });
}

export const changeProjectStatusInput = z.object({ projectId: requiredText(), status: z.enum(PROJECT_STATUSES) });

export function changeProjectStatus(
  ctx: RegistryContext,
  input: z.input<typeof changeProjectStatusInput>,
): { id: string; status: ProjectStatus; previousStatus: ProjectStatus; eventId: string } {
  const o = parseInput(changeProjectStatusInput, input);
  const { db } = ctx;
  return db.transaction(() => {
    const row = db.prepare('SELECT status FROM projects WHERE id = ?').get(o.projectId) as { status: ProjectStatus } | undefined;
    if (!row) throw notFound(`Project ${o.projectId} not found`);
    const allowed = PROJECT_STATUS_TRANSITIONS[row.status] ?? [];
    if (!allowed.includes(o.status)) {
      throw conflict(`A ${row.status} project cannot become ${o.status} (allowed: ${allowed.join(', ') || 'none'})`);
    }
    const now = ctx.clock.now();
    const eventId = ctx.newId();
    db.prepare('UPDATE projects SET status = ?, updated_at = ? WHERE id = ?').run(o.status, now, o.projectId);
    db.prepare(
      'INSERT INTO project_events (id, project_id, type, created_at, project_status, previous_project_status) VALUES (?, ?, ?, ?, ?, ?)',
    ).run(eventId, o.projectId, 'status_change', now, o.status, row.status);
    return { id: o.projectId, status: o.status, previousStatus: row.status, eventId };
  });
}
