// The registry operator's operations: everything staff do that the HTTP interface has no endpoint
// for. One typed module used by the operator CLI, the demo seed and the desk. Every operation
// validates its whole input first (a clear error, nothing changed) and makes its changes in one
// transaction.
import { createHash, createPublicKey } from 'node:crypto';
import { z } from 'zod';
import { AmountError, tonnesToGrams } from '../../../shared/registry/amounts';
import { CONTRACT_ADDRESS, formatCreditId, formatSerialization, WALLET_ADDRESS } from '../../../shared/registry/identifiers';
import {
  CREDIT_TYPES,
  ISSUABLE_PROJECT_STATUSES,
  ORGANIZATION_TYPES,
  PERMISSION_LEVELS,
  PROJECT_STATUSES,
  PROJECT_STATUS_TRANSITIONS,
  type ProjectStatus,
} from '../../../shared/registry/vocabulary';
import { alpha3Of } from '../../../shared/registry/countries';
import type { RegistryContext } from './context';
import { badRequest, conflict, notFound, zodMessages } from './errors';
import { accountId, appendMovement, balanceOf, describeAccount, insertRetirement, type AccountRef } from './ledger';
import { readSettings } from './settings';
import { heldInWarehouse } from './holds';

// ---- input schemas -------------------------------------------------------------------------------

const text = (max = 500) => z.string().trim().max(max);
const requiredText = (max = 500) => z.string().trim().min(1, 'must not be empty').max(max);
const dateInput = z.union([z.iso.datetime({ offset: true }), z.iso.date()]).transform((s) => Date.parse(s));
const tonnesInput = z.number({ error: 'must be a number of tonnes' }).positive('must be greater than 0');
const countryCode = z
  .string()
  .regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code')
  .refine((c) => alpha3Of(c) !== undefined, 'unknown country code');

export const createOrganizationInput = z.object({
  id: z.uuid().optional(),
  fullName: requiredText(200),
  type: z.enum(ORGANIZATION_TYPES).default('projectProponent'),
  countryCode: countryCode,
  city: text(100).default(''),
  zip: text(20).default(''),
  physicalAddress: text(300).default(''),
  registrationNumber: text(60).default(''),
  website: text(300).default(''),
  logo: text(500).default(''),
  organizationIndustries: z.object({ code: text(20), name: text(120) }).default({ code: '', name: '' }),
  isPublic: z.boolean().default(true),
  verified: z.boolean().default(false),
  isRegistry: z.boolean().default(false),
});

export const setOrganizationVerifiedInput = z.object({ organizationId: requiredText(), verified: z.boolean() });

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

export const changeProjectStatusInput = z.object({ projectId: requiredText(), status: z.enum(PROJECT_STATUSES) });

export const issueCreditsInput = z.object({
  projectId: requiredText(),
  vintage: z.string().regex(/^\d{4}$/, 'must be a four-digit year'),
  type: z.enum(CREDIT_TYPES).default('exPost'),
  amount: tonnesInput,
  /** Share to the buffer account in basis points; the registry default when omitted. */
  bufferBasisPoints: z.number().int().min(0).max(10_000).optional(),
  monitoringPeriodStart: dateInput,
  monitoringPeriodEnd: dateInput,
  verificationBodyId: requiredText(),
  files: z
    .array(z.object({ fileName: requiredText(300), size: z.number().int().nonnegative(), url: requiredText(1000), type: requiredText(60) }))
    .default([]),
});

const accountRefInput = z.discriminatedUnion('kind', [
  z.object({ kind: z.enum(['inventory', 'warehouse']), organizationId: requiredText() }),
  z.object({ kind: z.enum(['buffer', 'adjustment', 'registry']) }),
  z.object({ kind: z.literal('wallet'), address: z.string().regex(WALLET_ADDRESS, 'must be a 0x wallet address') }),
]);

export const warehouseMoveInput = z.object({ organizationId: requiredText(), creditId: requiredText(), amount: tonnesInput });

export const transferCreditsInput = z.object({
  from: accountRefInput,
  to: accountRefInput,
  creditId: requiredText(),
  amount: tonnesInput,
});

export const cancelCreditsInput = z.object({ from: accountRefInput, creditId: requiredText(), amount: tonnesInput });

export const retireFromInventoryInput = z.object({
  organizationId: requiredText(),
  creditId: requiredText(),
  amount: tonnesInput,
  beneficiary: requiredText(300),
  reason: requiredText(500),
  comment: text(2000).default(''),
});

export const recordOnchainRetirementInput = z.object({
  walletAddress: z.string().regex(WALLET_ADDRESS, 'must be a 0x wallet address'),
  creditId: requiredText(),
  amount: tonnesInput,
  /** Where the wallet got the credits from, when they are not yet in the wallet's account. */
  fromOrganizationId: requiredText().optional(),
  createdAt: dateInput.optional(),
});

export const createAppInput = z.object({
  id: z.uuid().optional(),
  name: requiredText(120),
  nameId: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{1,62}$/, 'must be a lowercase slug')
    .optional(),
  publicKeyPem: requiredText(10_000),
  examinerRead: z.boolean().default(false),
});

const permissionsInput = z.record(z.string(), z.string()).superRefine((perms, ctx) => {
  for (const [key, level] of Object.entries(perms)) {
    const allowed = (PERMISSION_LEVELS as Record<string, readonly string[]>)[key];
    if (!allowed) ctx.addIssue({ code: 'custom', message: `unknown permission ${key}`, path: [key] });
    else if (!allowed.includes(level)) ctx.addIssue({ code: 'custom', message: `${key} accepts ${allowed.join(' or ')}`, path: [key] });
  }
});

export const installAppInput = z.object({
  id: z.uuid().optional(),
  appId: requiredText(),
  organizationId: requiredText(),
  permissions: permissionsInput,
});

export const setInstallationStatusInput = z.object({ installationId: requiredText(), status: z.enum(['active', 'suspended']) });
export const removeInstallationInput = z.object({ installationId: requiredText() });
export const grantExaminerInput = z.object({ appId: requiredText(), granted: z.boolean().default(true) });

// ---- helpers -------------------------------------------------------------------------------------

export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (!result.success) throw badRequest(zodMessages(result.error.issues));
  return result.data;
}

function grams(tonnes: number, field = 'amount'): number {
  try {
    return tonnesToGrams(tonnes);
  } catch (error) {
    if (error instanceof AmountError) throw badRequest(`${field}: ${error.message}`);
    throw error;
  }
}

function requireOrganization(ctx: RegistryContext, id: string): { id: string; is_verified: number } {
  const row = ctx.db.prepare('SELECT id, is_verified FROM organizations WHERE id = ?').get(id) as
    { id: string; is_verified: number } | undefined;
  if (!row) throw notFound(`Organization ${id} not found`);
  return row;
}

function requireCredit(ctx: RegistryContext, id: string) {
  const row = ctx.db
    .prepare('SELECT c.*, p.contract_address FROM credits c JOIN projects p ON p.id = c.project_id WHERE c.id = ?')
    .get(id) as
    | { id: string; project_id: string; token_id: number; token_address: string; type: string; vintage: string; serialization: string }
    | undefined;
  if (!row) throw notFound(`Credit ${id} not found`);
  return row;
}

/** A deterministic contract address for a project that has none: sha256 of its id. */
function contractAddressFor(projectId: string): string {
  return `0x${createHash('sha256').update(`project-contract:${projectId}`).digest('hex').slice(0, 40)}`;
}

function slugify(name: string): string {
  const slug = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return slug.length >= 2 ? slug : `app-${slug}`;
}

// ---- operations ----------------------------------------------------------------------------------

export function createOrganization(ctx: RegistryContext, input: z.input<typeof createOrganizationInput>): { id: string } {
  const o = parseInput(createOrganizationInput, input);
  const id = o.id ?? ctx.newId();
  const now = ctx.clock.now();
  return ctx.db.transaction(() => {
    if (o.isRegistry && ctx.db.prepare('SELECT 1 FROM organizations WHERE is_registry = 1').get()) {
      throw conflict('The registry operator organization already exists');
    }
    if (ctx.db.prepare('SELECT 1 FROM organizations WHERE id = ?').get(id)) throw conflict(`Organization ${id} already exists`);
    ctx.db
      .prepare(
        `INSERT INTO organizations (id, full_name, type, country_code, city, zip, physical_address, registration_number, website, logo,
           industry_code, industry_name, is_public, is_verified, is_registry, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        id,
        o.fullName,
        o.type,
        o.countryCode,
        o.city,
        o.zip,
        o.physicalAddress,
        o.registrationNumber,
        o.website,
        o.logo,
        o.organizationIndustries.code,
        o.organizationIndustries.name,
        o.isPublic ? 1 : 0,
        o.verified ? 1 : 0,
        o.isRegistry ? 1 : 0,
        now,
        now,
      );
    return { id };
  });
}

export function setOrganizationVerified(
  ctx: RegistryContext,
  input: z.input<typeof setOrganizationVerifiedInput>,
): { id: string; verified: boolean } {
  const o = parseInput(setOrganizationVerifiedInput, input);
  requireOrganization(ctx, o.organizationId);
  ctx.db
    .prepare('UPDATE organizations SET is_verified = ?, updated_at = ? WHERE id = ?')
    .run(o.verified ? 1 : 0, ctx.clock.now(), o.organizationId);
  return { id: o.organizationId, verified: o.verified };
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

export interface IssueResult {
  creditId: string;
  serialization: string;
  eventId: string;
  /** Grams to the proponent's inventory and to the buffer account. */
  toInventory: number;
  toBuffer: number;
}

export function issueCredits(ctx: RegistryContext, input: z.input<typeof issueCreditsInput>): IssueResult {
  const o = parseInput(issueCreditsInput, input);
  const amount = grams(o.amount);
  if (o.monitoringPeriodEnd < o.monitoringPeriodStart) throw badRequest('monitoringPeriodEnd: must not be before monitoringPeriodStart');
  const { db } = ctx;
  const settings = readSettings(ctx);
  return db.transaction(() => {
    const project = db
      .prepare('SELECT id, num, status, country_code, type_id, organization_id, contract_address FROM projects WHERE id = ?')
      .get(o.projectId) as
      | {
          id: string;
          num: string;
          status: ProjectStatus;
          country_code: string | null;
          type_id: string;
          organization_id: string;
          contract_address: string;
        }
      | undefined;
    if (!project) throw notFound(`Project ${o.projectId} not found`);
    if (!ISSUABLE_PROJECT_STATUSES.includes(project.status)) {
      throw conflict(`Credits can be issued only for ${ISSUABLE_PROJECT_STATUSES.join(' or ')} projects; this one is ${project.status}`);
    }
    requireOrganization(ctx, o.verificationBodyId);
    const now = ctx.clock.now();
    let credit = db
      .prepare('SELECT id, serialization FROM credits WHERE project_id = ? AND vintage = ? AND type = ?')
      .get(project.id, o.vintage, o.type) as { id: string; serialization: string } | undefined;
    if (!credit) {
      const tokenId =
        ((
          db.prepare('SELECT MAX(token_id) AS n FROM credits WHERE token_address = ?').get(project.contract_address) as { n: number | null }
        ).n ?? 0) + 1;
      const id = formatCreditId(o.type, tokenId, project.contract_address);
      const serialization = formatSerialization({
        registryCode: settings.code,
        countryAlpha3: alpha3Of(project.country_code ?? '') ?? 'XXX',
        category: project.type_id === 'removal' ? 1 : project.type_id === 'avoidance' ? 2 : 0,
        projectNum: project.num,
        tokenId,
        type: o.type,
        batch: 0,
        vintage: o.vintage,
      });
      db.prepare(
        'INSERT INTO credits (id, project_id, token_address, token_id, type, vintage, serialization, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ).run(id, project.id, project.contract_address, tokenId, o.type, o.vintage, serialization, now);
      credit = { id, serialization };
    }
    const basisPoints = o.bufferBasisPoints ?? settings.bufferBasisPoints;
    const toBuffer = Math.floor((amount * basisPoints) / 10_000);
    const toInventory = amount - toBuffer;
    const eventId = ctx.newId();
    let movementId: number | null = null;
    if (toInventory > 0) {
      movementId = appendMovement(ctx, {
        creditId: credit.id,
        kind: 'issue',
        to: accountId(ctx, { kind: 'inventory', organizationId: project.organization_id }),
        amount: toInventory,
        reference: eventId,
      });
    }
    if (toBuffer > 0) {
      const bufferMovement = appendMovement(ctx, {
        creditId: credit.id,
        kind: 'issue',
        to: accountId(ctx, { kind: 'buffer' }),
        amount: toBuffer,
        reference: eventId,
      });
      movementId ??= bufferMovement;
    }
    db.prepare(
      `INSERT INTO credit_events (id, credit_id, type, credit_type, amount, created_at, monitoring_period_start, monitoring_period_end,
         verification_body_id, movement_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      eventId,
      credit.id,
      'issuance',
      'carbon',
      amount,
      now,
      o.monitoringPeriodStart,
      o.monitoringPeriodEnd,
      o.verificationBodyId,
      movementId,
    );
    const addFile = db.prepare(
      'INSERT INTO credit_event_files (id, event_id, file_name, size, url, type, position) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    o.files.forEach((f, i) => addFile.run(ctx.newId(), eventId, f.fileName, f.size, f.url, f.type, i));
    return { creditId: credit.id, serialization: credit.serialization, eventId, toInventory, toBuffer };
  });
}

export function depositToWarehouse(ctx: RegistryContext, input: z.input<typeof warehouseMoveInput>): { movementId: number } {
  const o = parseInput(warehouseMoveInput, input);
  const amount = grams(o.amount);
  return ctx.db.transaction(() => {
    requireOrganization(ctx, o.organizationId);
    requireCredit(ctx, o.creditId);
    const movementId = appendMovement(ctx, {
      creditId: o.creditId,
      kind: 'deposit',
      from: accountId(ctx, { kind: 'inventory', organizationId: o.organizationId }),
      to: accountId(ctx, { kind: 'warehouse', organizationId: o.organizationId }),
      amount,
    });
    return { movementId };
  });
}

export function withdrawFromWarehouse(ctx: RegistryContext, input: z.input<typeof warehouseMoveInput>): { movementId: number } {
  const o = parseInput(warehouseMoveInput, input);
  const amount = grams(o.amount);
  return ctx.db.transaction(() => {
    requireOrganization(ctx, o.organizationId);
    requireCredit(ctx, o.creditId);
    const warehouse = accountId(ctx, { kind: 'warehouse', organizationId: o.organizationId });
    const free = balanceOf(ctx, warehouse, o.creditId) - heldInWarehouse(ctx, o.organizationId, o.creditId);
    if (amount > free) throw conflict(`Only ${free / 1e6} t of ${o.creditId} is free in the warehouse (the rest is reserved or absent)`);
    const movementId = appendMovement(ctx, {
      creditId: o.creditId,
      kind: 'withdraw',
      from: warehouse,
      to: accountId(ctx, { kind: 'inventory', organizationId: o.organizationId }),
      amount,
    });
    return { movementId };
  });
}

/** Moves credits between any two accounts (e.g. into the adjustment account, or to a wallet on chain). */
export function transferCredits(ctx: RegistryContext, input: z.input<typeof transferCreditsInput>): { movementId: number } {
  const o = parseInput(transferCreditsInput, input);
  const amount = grams(o.amount);
  if (JSON.stringify(o.from) === JSON.stringify(o.to)) throw badRequest('from and to must be different accounts');
  if (o.from.kind === 'warehouse' || o.to.kind === 'warehouse') {
    throw badRequest('use deposit-to-warehouse / withdraw-from-warehouse for warehouse accounts');
  }
  return ctx.db.transaction(() => {
    requireCredit(ctx, o.creditId);
    const from = accountId(ctx, o.from as AccountRef);
    const to = accountId(ctx, o.to as AccountRef);
    if (balanceOf(ctx, from, o.creditId) < amount)
      throw conflict(`Not enough ${o.creditId} in the ${describeAccount(o.from as AccountRef)}`);
    return { movementId: appendMovement(ctx, { creditId: o.creditId, kind: 'transfer', from, to, amount }) };
  });
}

export function cancelCredits(ctx: RegistryContext, input: z.input<typeof cancelCreditsInput>): { movementId: number } {
  const o = parseInput(cancelCreditsInput, input);
  const amount = grams(o.amount);
  if (o.from.kind === 'warehouse') throw badRequest('withdraw credits from the warehouse before cancelling them');
  return ctx.db.transaction(() => {
    requireCredit(ctx, o.creditId);
    const from = accountId(ctx, o.from as AccountRef);
    return { movementId: appendMovement(ctx, { creditId: o.creditId, kind: 'cancel', from, amount }) };
  });
}

export function retireFromInventory(ctx: RegistryContext, input: z.input<typeof retireFromInventoryInput>): { retirementId: string } {
  const o = parseInput(retireFromInventoryInput, input);
  const amount = grams(o.amount);
  return ctx.db.transaction(() => {
    requireOrganization(ctx, o.organizationId);
    requireCredit(ctx, o.creditId);
    const retirementId = insertRetirement(ctx, {
      creditId: o.creditId,
      fromAccount: accountId(ctx, { kind: 'inventory', organizationId: o.organizationId }),
      amount,
      source: 'inventory',
      organizationId: o.organizationId,
      beneficiary: o.beneficiary,
      reason: o.reason,
      comment: o.comment,
    });
    return { retirementId };
  });
}

/** Records a retirement a wallet made on chain: unclaimed until its owner finalizes it. */
export function recordOnchainRetirement(
  ctx: RegistryContext,
  input: z.input<typeof recordOnchainRetirementInput>,
): { retirementId: string; walletAddress: string; projectAddress: string; tokenId: string } {
  const o = parseInput(recordOnchainRetirementInput, input);
  const amount = grams(o.amount);
  const wallet = o.walletAddress.toLowerCase();
  return ctx.db.transaction(() => {
    const credit = requireCredit(ctx, o.creditId);
    const walletAccount = accountId(ctx, { kind: 'wallet', address: wallet });
    if (o.fromOrganizationId) {
      requireOrganization(ctx, o.fromOrganizationId);
      appendMovement(ctx, {
        creditId: credit.id,
        kind: 'transfer',
        from: accountId(ctx, { kind: 'inventory', organizationId: o.fromOrganizationId }),
        to: walletAccount,
        amount,
        ...(o.createdAt !== undefined ? { createdAt: o.createdAt } : {}),
      });
    }
    const retirementId = insertRetirement(ctx, {
      creditId: credit.id,
      fromAccount: walletAccount,
      amount,
      source: 'onchain',
      organizationId: null,
      ownerWallet: wallet,
      projectAddress: credit.token_address,
      tokenId: String(credit.token_id),
      ...(o.createdAt !== undefined ? { createdAt: o.createdAt } : {}),
    });
    return { retirementId, walletAddress: wallet, projectAddress: credit.token_address, tokenId: String(credit.token_id) };
  });
}

export function createApp(ctx: RegistryContext, input: z.input<typeof createAppInput>): { id: string; name: string; nameId: string } {
  const o = parseInput(createAppInput, input);
  let key;
  try {
    key = createPublicKey(o.publicKeyPem);
  } catch {
    throw badRequest('publicKeyPem: not a PEM public key');
  }
  if (key.asymmetricKeyType !== 'rsa') throw badRequest('publicKeyPem: apps sign with RS256, so the key must be RSA');
  if ((key.asymmetricKeyDetails?.modulusLength ?? 0) < 2048) throw badRequest('publicKeyPem: RSA keys must be at least 2048 bits');
  const pem = key.export({ type: 'spki', format: 'pem' }).toString();
  const id = o.id ?? ctx.newId();
  const nameId = o.nameId ?? slugify(o.name);
  const now = ctx.clock.now();
  return ctx.db.transaction(() => {
    if (ctx.db.prepare('SELECT 1 FROM apps WHERE id = ?').get(id)) throw conflict(`App ${id} already exists`);
    if (ctx.db.prepare('SELECT 1 FROM apps WHERE name_id = ?').get(nameId)) throw conflict(`An app named ${nameId} already exists`);
    ctx.db
      .prepare('INSERT INTO apps (id, name, name_id, public_key_pem, examiner_read, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(id, o.name, nameId, pem, o.examinerRead ? 1 : 0, now, now);
    return { id, name: o.name, nameId };
  });
}

export function grantExaminer(ctx: RegistryContext, input: z.input<typeof grantExaminerInput>): { appId: string; examinerRead: boolean } {
  const o = parseInput(grantExaminerInput, input);
  const result = ctx.db
    .prepare('UPDATE apps SET examiner_read = ?, updated_at = ? WHERE id = ?')
    .run(o.granted ? 1 : 0, ctx.clock.now(), o.appId);
  if (result.changes === 0) throw notFound(`App ${o.appId} not found`);
  return { appId: o.appId, examinerRead: o.granted };
}

export function installApp(ctx: RegistryContext, input: z.input<typeof installAppInput>): { id: string } {
  const o = parseInput(installAppInput, input);
  const id = o.id ?? ctx.newId();
  const now = ctx.clock.now();
  return ctx.db.transaction(() => {
    if (!ctx.db.prepare('SELECT 1 FROM apps WHERE id = ?').get(o.appId)) throw notFound(`App ${o.appId} not found`);
    requireOrganization(ctx, o.organizationId);
    if (ctx.db.prepare('SELECT 1 FROM installations WHERE app_id = ? AND organization_id = ?').get(o.appId, o.organizationId)) {
      throw conflict(`App ${o.appId} is already installed on organization ${o.organizationId}`);
    }
    ctx.db
      .prepare(
        'INSERT INTO installations (id, app_id, organization_id, permissions, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      )
      .run(id, o.appId, o.organizationId, JSON.stringify(o.permissions), 'active', now, now);
    return { id };
  });
}

/** Suspending stops the installation's tokens at once (they are checked against it on every call). */
export function setInstallationStatus(
  ctx: RegistryContext,
  input: z.input<typeof setInstallationStatusInput>,
): { id: string; status: string } {
  const o = parseInput(setInstallationStatusInput, input);
  const result = ctx.db
    .prepare('UPDATE installations SET status = ?, updated_at = ? WHERE id = ?')
    .run(o.status, ctx.clock.now(), o.installationId);
  if (result.changes === 0) throw notFound(`Installation ${o.installationId} not found`);
  return { id: o.installationId, status: o.status };
}

export function removeInstallation(ctx: RegistryContext, input: z.input<typeof removeInstallationInput>): { id: string; removed: true } {
  const o = parseInput(removeInstallationInput, input);
  return ctx.db.transaction(() => {
    if (!ctx.db.prepare('SELECT 1 FROM installations WHERE id = ?').get(o.installationId))
      throw notFound(`Installation ${o.installationId} not found`);
    ctx.db.prepare('DELETE FROM access_tokens WHERE installation_id = ?').run(o.installationId);
    ctx.db.prepare('DELETE FROM installations WHERE id = ?').run(o.installationId);
    return { id: o.installationId, removed: true as const };
  });
}
