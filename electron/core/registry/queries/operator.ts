// What the back office reads (the operator endpoints): every organization with its accounts and
// balances, projects and installations; projects of any status with their history; accounts; the
// ledger history of one credit; apps with their installations. Amounts are exact whole grams.
import { sql, type InferResult, type Kysely, type Selectable } from 'kysely';
import type { ProjectStatus } from '@shared/registry/vocabulary';
import { iso } from '@platform/clock';
import type { RegistryContext } from '../context';
import { notFound } from '../errors';
import type { RegistryTables } from '../schema';
import { projectById } from './projects';

type Q = Kysely<RegistryTables>;
/** Projects in number order (the projects_by_number index's expression). */
const BY_NUMBER = sql`CAST(num AS INTEGER)`;

/** How many organizations, accounts or apps the registry has (a page's total). */
export function countRows(ctx: RegistryContext, table: 'organizations' | 'accounts' | 'apps'): number {
  return ctx.db.first(ctx.db.q.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')))?.n ?? 0;
}

/** How many projects the registry has, of one status if given. */
export function countOperatorProjects(ctx: RegistryContext, status?: ProjectStatus): number {
  const counted = ctx.db.q.selectFrom('projects').select((eb) => eb.fn.countAll<number>().as('n'));
  return ctx.db.first(status ? counted.where('status', '=', status) : counted)?.n ?? 0;
}

export interface OperatorBalance {
  creditId: string;
  serialization: string;
  amountGrams: number;
}

export interface OperatorAccount {
  id: string;
  kind: 'inventory' | 'warehouse' | 'buffer' | 'adjustment' | 'registry' | 'wallet';
  organizationId: string | null;
  walletAddress: string | null;
  balances: OperatorBalance[];
}

export interface OperatorInstallation {
  id: string;
  appId: string;
  appName: string;
  organizationId: string;
  status: 'active' | 'suspended';
  permissions: Record<string, string>;
  createdAt: string;
}

const ACCOUNT_FIELDS = ['id', 'kind', 'organization_id', 'wallet_address'] as const;
type AccountFields = Pick<Selectable<RegistryTables['accounts']>, (typeof ACCOUNT_FIELDS)[number]>;

const accountBalances = (v: { accountId: string }, q: Q) =>
  q
    .selectFrom('balances as b')
    .innerJoin('credits as c', 'c.id', 'b.credit_id')
    .select(['b.credit_id', 'c.serialization', 'b.amount'])
    .where('b.account_id', '=', v.accountId)
    .where('b.amount', '>', 0)
    .orderBy('c.serialization');

function balancesOf(ctx: RegistryContext, accountId: string): OperatorBalance[] {
  return ctx.db
    .prepared(accountBalances)
    .all({ accountId })
    .map((b) => ({ creditId: b.credit_id, serialization: b.serialization, amountGrams: b.amount }));
}

const presentAccount = (ctx: RegistryContext, a: AccountFields): OperatorAccount => ({
  id: a.id,
  kind: a.kind,
  organizationId: a.organization_id,
  walletAddress: a.wallet_address,
  balances: balancesOf(ctx, a.id),
});

const selectInstallations = (q: Q) =>
  q
    .selectFrom('installations as i')
    .innerJoin('apps as a', 'a.id', 'i.app_id')
    .select(['i.id', 'i.app_id', 'a.name as app_name', 'i.organization_id', 'i.status', 'i.permissions', 'i.created_at']);
const installationsOfOrganization = (v: { organizationId: string }, q: Q) =>
  selectInstallations(q).where('i.organization_id', '=', v.organizationId).orderBy('i.created_at').orderBy('i.id');
const installationsOfApp = (v: { appId: string }, q: Q) =>
  selectInstallations(q).where('i.app_id', '=', v.appId).orderBy('i.created_at').orderBy('i.id');

const presentInstallation = (i: InferResult<ReturnType<typeof selectInstallations>>[number]): OperatorInstallation => ({
  id: i.id,
  appId: i.app_id,
  appName: i.app_name,
  organizationId: i.organization_id,
  status: i.status,
  permissions: JSON.parse(i.permissions) as Record<string, string>,
  createdAt: iso(i.created_at),
});

const organizationAccounts = (v: { organizationId: string }, q: Q) =>
  q.selectFrom('accounts').select(ACCOUNT_FIELDS).where('organization_id', '=', v.organizationId).orderBy('kind');
const organizationProjects = (v: { organizationId: string }, q: Q) =>
  q.selectFrom('projects').select(['id', 'num', 'full_name', 'status']).where('organization_id', '=', v.organizationId).orderBy(BY_NUMBER);
const organizationPage = (v: { limit: number; offset: number }, q: Q) =>
  q.selectFrom('organizations').selectAll().orderBy('full_name').orderBy('id').limit(v.limit).offset(v.offset);
const organizationById = (v: { id: string }, q: Q) => q.selectFrom('organizations').selectAll().where('id', '=', v.id);

function presentOrganization(ctx: RegistryContext, o: Selectable<RegistryTables['organizations']>) {
  const { db } = ctx;
  const accounts = db.prepared(organizationAccounts).all({ organizationId: o.id });
  const projects = db.prepared(organizationProjects).all({ organizationId: o.id });
  const installations = db.prepared(installationsOfOrganization).all({ organizationId: o.id });
  return {
    id: o.id,
    fullName: o.full_name,
    type: o.type,
    countryCode: o.country_code,
    city: o.city,
    zip: o.zip,
    physicalAddress: o.physical_address,
    registrationNumber: o.registration_number,
    website: o.website,
    logo: o.logo,
    organizationIndustries: { code: o.industry_code, name: o.industry_name },
    isPublic: o.is_public === 1,
    isVerified: o.is_verified === 1,
    isRegistry: o.is_registry === 1,
    createdAt: iso(o.created_at),
    updatedAt: iso(o.updated_at),
    accounts: accounts.map((a) => presentAccount(ctx, a)),
    projects: projects.map((p) => ({ id: p.id, num: p.num, fullName: p.full_name, status: p.status })),
    installations: installations.map(presentInstallation),
  };
}

export type OperatorOrganization = ReturnType<typeof presentOrganization>;

export function operatorOrganizations(
  ctx: RegistryContext,
  offset: number,
  limit: number,
): { total: number; organizations: OperatorOrganization[] } {
  const total = countRows(ctx, 'organizations');
  const rows = ctx.db.prepared(organizationPage).all({ limit, offset });
  return { total, organizations: rows.map((o) => presentOrganization(ctx, o)) };
}

export function operatorOrganization(ctx: RegistryContext, id: string): OperatorOrganization {
  const row = ctx.db.prepared(organizationById).first({ id });
  if (!row) throw notFound(`Organization ${id} not found`);
  return presentOrganization(ctx, row);
}

const selectProjects = (q: Q) =>
  q
    .selectFrom('projects')
    .select(['id', 'num', 'full_name', 'status', 'organization_id', 'country_code', 'contract_address', 'created_at', 'updated_at']);
const operatorProjectById = (v: { id: string }, q: Q) => selectProjects(q).where('id', '=', v.id);
const projectHistory = (v: { projectId: string }, q: Q) =>
  q
    .selectFrom('project_events')
    .select(['id', 'type', 'created_at', 'project_status', 'previous_project_status', 'comment'])
    .where('project_id', '=', v.projectId)
    .orderBy('created_at')
    .orderBy('id');

function presentProject(ctx: RegistryContext, p: InferResult<ReturnType<typeof selectProjects>>[number]) {
  const events = ctx.db.prepared(projectHistory).all({ projectId: p.id });
  return {
    id: p.id,
    num: p.num,
    fullName: p.full_name,
    status: p.status,
    organizationId: p.organization_id,
    countryCode: p.country_code,
    contractAddress: p.contract_address,
    createdAt: iso(p.created_at),
    updatedAt: iso(p.updated_at),
    history: events.map((e) => ({
      id: e.id,
      type: e.type,
      createdAt: iso(e.created_at),
      projectStatus: e.project_status,
      previousProjectStatus: e.previous_project_status,
      comment: e.comment,
    })),
  };
}

export function operatorProjects(
  ctx: RegistryContext,
  offset: number,
  limit: number,
  status?: ProjectStatus,
): { total: number; projects: ReturnType<typeof presentProject>[] } {
  const { db } = ctx;
  const total = countOperatorProjects(ctx, status);
  const listed = selectProjects(db.q);
  const rows = db.all((status ? listed.where('status', '=', status) : listed).orderBy(BY_NUMBER).orderBy('id').limit(limit).offset(offset));
  return { total, projects: rows.map((p) => presentProject(ctx, p)) };
}

export function operatorProject(ctx: RegistryContext, id: string) {
  const row = ctx.db.prepared(operatorProjectById).first({ id });
  if (!row) throw notFound(`Project ${id} not found`);
  return presentProject(ctx, row);
}

/**
 * One project for the back office: its operator view (status and history) and every field of the
 * interface's project (2.5), non-public documents included, so a draft can be edited in full.
 */
export function operatorProjectWithDetails(ctx: RegistryContext, id: string) {
  const project = operatorProject(ctx, id);
  const details = projectById(ctx, id, 'all');
  if (!details) throw notFound(`Project ${id} not found`);
  return { project, details };
}

export function operatorAccounts(ctx: RegistryContext, offset: number, limit: number): { total: number; accounts: OperatorAccount[] } {
  const { db } = ctx;
  const total = countRows(ctx, 'accounts');
  const rows = db.all(db.q.selectFrom('accounts').select(ACCOUNT_FIELDS).orderBy('created_at').orderBy('id').limit(limit).offset(offset));
  return { total, accounts: rows.map((a) => presentAccount(ctx, a)) };
}

export function creditHistory(ctx: RegistryContext, by: { creditId?: string; serialization?: string }) {
  const { db } = ctx;
  const credits = db.q.selectFrom('credits').select(['id', 'serialization', 'project_id', 'vintage', 'type']);
  const query =
    by.creditId !== undefined
      ? credits.where('id', '=', by.creditId)
      : by.serialization !== undefined
        ? credits.where('serialization', '=', by.serialization)
        : undefined;
  // neither key given: no credit matches
  const credit = query && db.first(query);
  if (!credit) throw notFound(`Credit ${by.creditId ?? by.serialization ?? ''} not found`);
  const movements = db.all(
    db.q
      .selectFrom('movements')
      .select(['id', 'created_at', 'kind', 'from_account', 'to_account', 'amount', 'reference'])
      .where('credit_id', '=', credit.id)
      .orderBy('id'),
  );
  return {
    credit: {
      id: credit.id,
      serialization: credit.serialization,
      projectId: credit.project_id,
      vintage: credit.vintage,
      type: credit.type,
    },
    movements: movements.map((m) => ({
      id: m.id,
      at: iso(m.created_at),
      kind: m.kind,
      fromAccountId: m.from_account,
      toAccountId: m.to_account,
      amountGrams: m.amount,
      reference: m.reference,
    })),
  };
}

export function operatorApps(ctx: RegistryContext, offset: number, limit: number) {
  const { db } = ctx;
  const total = countRows(ctx, 'apps');
  const rows = db.all(
    db.q
      .selectFrom('apps')
      .select(['id', 'name', 'name_id', 'examiner_read', 'created_at'])
      .orderBy('created_at')
      .orderBy('id')
      .limit(limit)
      .offset(offset),
  );
  const installationsOf = db.prepared(installationsOfApp);
  return {
    total,
    apps: rows.map((a) => ({
      id: a.id,
      name: a.name,
      nameId: a.name_id,
      examinerRead: a.examiner_read === 1,
      createdAt: iso(a.created_at),
      installations: installationsOf.all({ appId: a.id }).map(presentInstallation),
    })),
  };
}
