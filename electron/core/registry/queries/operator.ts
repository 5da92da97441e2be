// What the back office reads (the operator endpoints): every organization with its accounts and
// balances, projects and installations; projects of any status with their history; accounts; the
// ledger history of one credit; apps with their installations. Amounts are exact whole grams.
import type { ProjectStatus } from '@shared/registry/vocabulary';
import { iso } from '@platform/clock';
import type { RegistryContext } from '../context';
import { notFound } from '../errors';
import { projectById } from './projects';

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

interface AccountRow {
  id: string;
  kind: OperatorAccount['kind'];
  organization_id: string | null;
  wallet_address: string | null;
}

function balancesOf(ctx: RegistryContext, accountId: string): OperatorBalance[] {
  return (
    ctx.db
      .prepare(
        `SELECT b.credit_id, c.serialization, b.amount FROM balances b JOIN credits c ON c.id = b.credit_id
         WHERE b.account_id = ? AND b.amount > 0 ORDER BY c.serialization`,
      )
      .all(accountId) as { credit_id: string; serialization: string; amount: number }[]
  ).map((b) => ({ creditId: b.credit_id, serialization: b.serialization, amountGrams: b.amount }));
}

const presentAccount = (ctx: RegistryContext, a: AccountRow): OperatorAccount => ({
  id: a.id,
  kind: a.kind,
  organizationId: a.organization_id,
  walletAddress: a.wallet_address,
  balances: balancesOf(ctx, a.id),
});

interface InstallationRow {
  id: string;
  app_id: string;
  app_name: string;
  organization_id: string;
  status: 'active' | 'suspended';
  permissions: string;
  created_at: number;
}

const INSTALLATION_SELECT = `SELECT i.id, i.app_id, a.name AS app_name, i.organization_id, i.status, i.permissions, i.created_at
  FROM installations i JOIN apps a ON a.id = i.app_id`;

const presentInstallation = (i: InstallationRow): OperatorInstallation => ({
  id: i.id,
  appId: i.app_id,
  appName: i.app_name,
  organizationId: i.organization_id,
  status: i.status,
  permissions: JSON.parse(i.permissions) as Record<string, string>,
  createdAt: iso(i.created_at),
});

interface OrganizationRow {
  id: string;
  full_name: string;
  type: string;
  country_code: string;
  city: string;
  zip: string;
  physical_address: string;
  registration_number: string;
  website: string;
  logo: string;
  industry_code: string;
  industry_name: string;
  is_public: number;
  is_verified: number;
  is_registry: number;
  created_at: number;
  updated_at: number;
}

const ORGANIZATION_SELECT = `SELECT id, full_name, type, country_code, city, zip, physical_address, registration_number, website, logo,
  industry_code, industry_name, is_public, is_verified, is_registry, created_at, updated_at FROM organizations`;

function presentOrganization(ctx: RegistryContext, o: OrganizationRow) {
  const accounts = ctx.db
    .prepare('SELECT id, kind, organization_id, wallet_address FROM accounts WHERE organization_id = ? ORDER BY kind')
    .all(o.id) as AccountRow[];
  const projects = ctx.db
    .prepare('SELECT id, num, full_name, status FROM projects WHERE organization_id = ? ORDER BY CAST(num AS INTEGER)')
    .all(o.id) as { id: string; num: string; full_name: string; status: ProjectStatus }[];
  const installations = ctx.db
    .prepare(`${INSTALLATION_SELECT} WHERE i.organization_id = ? ORDER BY i.created_at, i.id`)
    .all(o.id) as InstallationRow[];
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
  const { n } = ctx.db.prepare('SELECT COUNT(*) AS n FROM organizations').get() as { n: number };
  const rows = ctx.db.prepare(`${ORGANIZATION_SELECT} ORDER BY full_name, id LIMIT ? OFFSET ?`).all(limit, offset) as OrganizationRow[];
  return { total: n, organizations: rows.map((o) => presentOrganization(ctx, o)) };
}

export function operatorOrganization(ctx: RegistryContext, id: string): OperatorOrganization {
  const row = ctx.db.prepare(`${ORGANIZATION_SELECT} WHERE id = ?`).get(id) as OrganizationRow | undefined;
  if (!row) throw notFound(`Organization ${id} not found`);
  return presentOrganization(ctx, row);
}

interface ProjectRow {
  id: string;
  num: string;
  full_name: string;
  status: ProjectStatus;
  organization_id: string;
  country_code: string | null;
  contract_address: string;
  created_at: number;
  updated_at: number;
}

const PROJECT_SELECT =
  'SELECT id, num, full_name, status, organization_id, country_code, contract_address, created_at, updated_at FROM projects';

function presentProject(ctx: RegistryContext, p: ProjectRow) {
  const events = ctx.db
    .prepare(
      `SELECT id, type, created_at, project_status, previous_project_status, comment
       FROM project_events WHERE project_id = ? ORDER BY created_at, id`,
    )
    .all(p.id) as {
    id: string;
    type: string;
    created_at: number;
    project_status: string;
    previous_project_status: string;
    comment: string;
  }[];
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
  const where = status ? 'WHERE status = ?' : '';
  const args = status ? [status] : [];
  const { n } = ctx.db.prepare(`SELECT COUNT(*) AS n FROM projects ${where}`).get(...args) as { n: number };
  const rows = ctx.db
    .prepare(`${PROJECT_SELECT} ${where} ORDER BY CAST(num AS INTEGER), id LIMIT ? OFFSET ?`)
    .all(...args, limit, offset) as ProjectRow[];
  return { total: n, projects: rows.map((p) => presentProject(ctx, p)) };
}

export function operatorProject(ctx: RegistryContext, id: string) {
  const row = ctx.db.prepare(`${PROJECT_SELECT} WHERE id = ?`).get(id) as ProjectRow | undefined;
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
  const { n } = ctx.db.prepare('SELECT COUNT(*) AS n FROM accounts').get() as { n: number };
  const rows = ctx.db
    .prepare('SELECT id, kind, organization_id, wallet_address FROM accounts ORDER BY created_at, id LIMIT ? OFFSET ?')
    .all(limit, offset) as AccountRow[];
  return { total: n, accounts: rows.map((a) => presentAccount(ctx, a)) };
}

export function creditHistory(ctx: RegistryContext, by: { creditId?: string; serialization?: string }) {
  const credit = (
    by.creditId !== undefined
      ? ctx.db.prepare('SELECT id, serialization, project_id, vintage, type FROM credits WHERE id = ?').get(by.creditId)
      : ctx.db.prepare('SELECT id, serialization, project_id, vintage, type FROM credits WHERE serialization = ?').get(by.serialization)
  ) as { id: string; serialization: string; project_id: string; vintage: string; type: string } | undefined;
  if (!credit) throw notFound(`Credit ${by.creditId ?? by.serialization ?? ''} not found`);
  const movements = ctx.db
    .prepare('SELECT id, created_at, kind, from_account, to_account, amount, reference FROM movements WHERE credit_id = ? ORDER BY id')
    .all(credit.id) as {
    id: number;
    created_at: number;
    kind: string;
    from_account: string | null;
    to_account: string | null;
    amount: number;
    reference: string | null;
  }[];
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
  const { n } = ctx.db.prepare('SELECT COUNT(*) AS n FROM apps').get() as { n: number };
  const rows = ctx.db
    .prepare('SELECT id, name, name_id, examiner_read, created_at FROM apps ORDER BY created_at, id LIMIT ? OFFSET ?')
    .all(limit, offset) as { id: string; name: string; name_id: string; examiner_read: number; created_at: number }[];
  const installationsOf = ctx.db.prepare(`${INSTALLATION_SELECT} WHERE i.app_id = ? ORDER BY i.created_at, i.id`);
  return {
    total: n,
    apps: rows.map((a) => ({
      id: a.id,
      name: a.name,
      nameId: a.name_id,
      examinerRead: a.examiner_read === 1,
      createdAt: iso(a.created_at),
      installations: (installationsOf.all(a.id) as InstallationRow[]).map(presentInstallation),
    })),
  };
}
