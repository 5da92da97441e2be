// 4.6 Installations as an app sees them: only its own (another app's installation id is 404, so an
// app cannot even learn that others' installations exist), oldest first.
import type { Installation } from '../../../../shared/registry/resources';
import { iso } from '../../clock';
import type { RegistryContext } from '../context';
import { notFound } from '../errors';
import { organizationRow, presentOrganization } from '../present';

export interface InstallationRow {
  id: string;
  app_id: string;
  organization_id: string;
  permissions: string;
  status: string;
  created_at: number;
  updated_at: number;
  name_id: string;
}

const INSTALLATION_SELECT = `SELECT i.*, a.name_id FROM installations i JOIN apps a ON a.id = i.app_id`;

export function presentInstallation(ctx: RegistryContext, row: InstallationRow): Installation {
  const org = organizationRow(ctx, row.organization_id);
  if (!org) throw new Error(`installation ${row.id} points to a missing organization`);
  return {
    id: row.id,
    appId: row.app_id,
    appNameId: row.name_id,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    permissions: installationPermissions(row),
    organization: presentOrganization(ctx, org),
    accessTokensUrl: `${ctx.urls.apiBaseUrl}/app/installations/${row.id}/accessTokens`,
  };
}

export const installationPermissions = (row: InstallationRow): Record<string, string> =>
  JSON.parse(row.permissions) as Record<string, string>;

/** The app's own installation, or 404. */
export function ownInstallation(ctx: RegistryContext, appId: string, installationId: string): InstallationRow {
  const row = ctx.db.prepare(`${INSTALLATION_SELECT} WHERE i.id = ? AND i.app_id = ?`).get(installationId, appId) as
    InstallationRow | undefined;
  if (!row) throw notFound(`Installation ${installationId} not found`);
  return row;
}

export function countInstallationsOfApp(ctx: RegistryContext, appId: string): number {
  return (ctx.db.prepare('SELECT COUNT(*) AS n FROM installations WHERE app_id = ?').get(appId) as { n: number }).n;
}

export function listInstallationsOfApp(ctx: RegistryContext, appId: string, options: { limit: number; offset: number }): Installation[] {
  const rows = ctx.db
    .prepare(`${INSTALLATION_SELECT} WHERE i.app_id = ? ORDER BY i.created_at, i.id LIMIT ? OFFSET ?`)
    .all(appId, options.limit, options.offset) as InstallationRow[];
  return rows.map((r) => presentInstallation(ctx, r));
}
