// Rows to the wire resources of section 2 that several parts of the registry hand out: project
// references, organization summaries and records, retirements (with the redaction rule).
import type { Organization, OrganizationSummary, ProjectReference, Retirement } from '@shared/registry/resources';
import { gramsToTonnes } from '@shared/registry/amounts';
import { iso } from '../platform/clock';
import type { InferResult, Kysely, Selectable } from 'kysely';
import type { RegistryContext } from './context';
import type { RegistryTables } from './schema';
import { notFound } from './errors';

/** An organization as stored (the schema's row). */
export type StoredOrganization = Selectable<RegistryTables['organizations']>;

// Statements compiled once per connection (SyncDatabase.prepared): every page of projects,
// retirements and reservations looks up project references and organizations.
type Q = Kysely<RegistryTables>;
const projectReference = (v: { id: string }, q: Q) =>
  q.selectFrom('projects').select(['id', 'full_name', 'num', 'status']).where('id', '=', v.id);
const organizationById = (v: { id: string }, q: Q) => q.selectFrom('organizations').selectAll().where('id', '=', v.id);

export function projectUrls(ctx: RegistryContext, id: string) {
  return {
    url: `${ctx.urls.apiBaseUrl}/projects/${id}`,
    publicUrl: `${ctx.urls.publicBaseUrl}/projects/${id}`,
  };
}

export function presentProjectReference(ctx: RegistryContext, row: { id: string; full_name: string; num: string }): ProjectReference {
  return { id: row.id, fullName: row.full_name, ...projectUrls(ctx, row.id), num: row.num };
}

const projectReferenceCache = new WeakMap<RegistryContext, Map<string, ProjectReference>>();
/**
 * Statuses from which a project can never go back to draft, the only status in which its name can
 * be edited (PROJECT_STATUS_TRANSITIONS, updateProject): its reference is then fixed for good.
 */
const FIXED_NAME_STATUSES = new Set(['validated', 'registered', 'withdrawn']);

/**
 * Project references by id. Cached once the name can no longer change (every project with credits:
 * credits are issued only to validated or registered projects), so no process, this one or another
 * sharing the database, can hold a stale one; a draft's is read each time.
 */
export function projectReferenceOf(ctx: RegistryContext, projectId: string): ProjectReference {
  let cache = projectReferenceCache.get(ctx);
  if (!cache) projectReferenceCache.set(ctx, (cache = new Map<string, ProjectReference>()));
  let ref = cache.get(projectId);
  if (!ref) {
    const row = ctx.db.prepared(projectReference).first({ id: projectId });
    if (!row) throw notFound(`Project ${projectId} not found`);
    ref = presentProjectReference(ctx, row);
    if (FIXED_NAME_STATUSES.has(row.status)) cache.set(projectId, ref);
  }
  return ref;
}

export function presentOrganizationSummary(
  ctx: RegistryContext,
  row: Pick<StoredOrganization, 'id' | 'full_name' | 'logo'>,
): OrganizationSummary {
  return { fullName: row.full_name, logo: row.logo, id: row.id, publicUrl: `${ctx.urls.publicBaseUrl}/organizations/${row.id}` };
}

export function presentOrganization(ctx: RegistryContext, row: StoredOrganization): Organization {
  return {
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    fullName: row.full_name,
    countryCode: row.country_code,
    city: row.city,
    zip: row.zip,
    physicalAddress: row.physical_address,
    registrationNumber: row.registration_number,
    website: row.website,
    logo: row.logo,
    id: row.id,
    organizationIndustries: { code: row.industry_code, name: row.industry_name },
    type: row.type,
    isPublic: row.is_public === 1,
    url: `${ctx.urls.apiBaseUrl}/v1/organizations/${row.id}`,
  };
}

export function organizationRow(ctx: RegistryContext, id: string): StoredOrganization | undefined {
  return ctx.db.prepared(organizationById).first({ id });
}

/**
 * Retirements (`r`) with what `presentRetirement` needs of their credit (`c`) and organization
 * (`o`, none for an on-chain retirement): callers add the condition, order and limit.
 */
export function selectRetirements(q: Q) {
  return q
    .selectFrom('retirements as r')
    .innerJoin('credits as c', 'c.id', 'r.credit_id')
    .leftJoin('organizations as o', 'o.id', 'r.organization_id')
    .select([
      'r.id',
      'r.credit_id',
      'r.amount',
      'r.created_at',
      'r.source',
      'r.organization_id',
      'r.owner_wallet',
      'r.beneficiary',
      'r.reason',
      'r.comment',
      'r.finalized_at',
      'c.project_id',
      'c.serialization',
      'c.vintage',
      'o.full_name as org_full_name',
      'o.logo as org_logo',
      'o.is_verified as org_verified',
    ]);
}

/** A retirement as `selectRetirements` reads it. */
export type SelectedRetirement = InferResult<ReturnType<typeof selectRetirements>>[number];

const retirementById = (v: { id: string }, q: Q) => selectRetirements(q).where('r.id', '=', v.id);

/**
 * A retirement is claimed when a business-verified organization made it, or when its owner wallet
 * finalized it (compatibility.md). Claimed ones are shown in full and have a certificate.
 */
export function isRetirementClaimed(row: Pick<SelectedRetirement, 'source' | 'finalized_at' | 'org_verified'>): boolean {
  return row.source === 'onchain' ? row.finalized_at !== null : row.org_verified === 1;
}

export function presentRetirement(ctx: RegistryContext, row: SelectedRetirement): Retirement {
  const project = projectReferenceOf(ctx, row.project_id);
  const base = { id: row.id, createdAt: iso(row.created_at), amount: gramsToTonnes(row.amount), project };
  // In the order of the contract's redacted schema (id, isClaimed, …): a desk then uses the item as
  // it is instead of having zod copy it into that order (a third of the retirements at --scale 100).
  if (!isRetirementClaimed(row)) return { id: base.id, isClaimed: false, createdAt: base.createdAt, amount: base.amount, project };
  const owner: OrganizationSummary =
    row.organization_id && row.org_full_name !== null
      ? presentOrganizationSummary(ctx, { id: row.organization_id, full_name: row.org_full_name, logo: row.org_logo ?? '' })
      : // a finalized on-chain retirement: its owner is the wallet, shown as a summary of it
        {
          fullName: row.owner_wallet ?? '',
          logo: '',
          id: row.owner_wallet ?? '',
          publicUrl: `${ctx.urls.publicBaseUrl}/wallets/${row.owner_wallet ?? ''}`,
        };
  return {
    createdAt: base.createdAt,
    id: row.id,
    isClaimed: true,
    reason: row.reason ?? '',
    comment: row.comment ?? '',
    beneficiary: row.beneficiary ?? '',
    organizationId: row.organization_id ?? row.owner_wallet ?? '',
    organizationOwner: owner,
    serialization: row.serialization,
    vintage: row.vintage,
    amount: base.amount,
    project,
  };
}

export function retirementRow(ctx: RegistryContext, id: string): SelectedRetirement | undefined {
  return ctx.db.prepared(retirementById).first({ id });
}
