// 4.6 Apps: tokens and installations (compatibility.md, Apps, installations, tokens).
import type { Installation } from '../../../../shared/registry/resources';
import { iso } from '../../clock';
import { issueAccessToken, revokeToken } from '../../auth/tokens';
import type { RegistryContext } from '../../registry/context';
import { forbidden, notFound, unauthorized } from '../../registry/errors';
import { organizationRow, presentOrganization } from '../../registry/present';
import { pageOf } from '../pagination';
import type { Caller } from '../../auth/caller';
import type { Handlers } from '../types';

interface InstallationRow {
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

function presentInstallation(ctx: RegistryContext, row: InstallationRow): Installation {
  const org = organizationRow(ctx, row.organization_id);
  if (!org) throw new Error(`installation ${row.id} points to a missing organization`);
  return {
    id: row.id,
    appId: row.app_id,
    appNameId: row.name_id,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    permissions: JSON.parse(row.permissions) as Record<string, string>,
    organization: presentOrganization(ctx, org),
    accessTokensUrl: `${ctx.urls.apiBaseUrl}/app/installations/${row.id}/accessTokens`,
  };
}

function appIdOf(caller: Caller): string {
  if (caller.kind !== 'app') throw unauthorized('Expected an app JWT');
  return caller.appId;
}

/** The app's own installation, or 404: an app cannot even learn that others' installations exist. */
function ownInstallation(ctx: RegistryContext, appId: string, installationId: string): InstallationRow {
  const row = ctx.db.prepare(`${INSTALLATION_SELECT} WHERE i.id = ? AND i.app_id = ?`).get(installationId, appId) as
    InstallationRow | undefined;
  if (!row) throw notFound(`Installation ${installationId} not found`);
  return row;
}

export const appHandlers: Pick<
  Handlers,
  'createAppAccessToken' | 'createInstallationAccessToken' | 'revokeAccessToken' | 'listInstallations' | 'getInstallation'
> = {
  createAppAccessToken({ caller, registry }) {
    const appId = appIdOf(caller);
    const app = registry.db.prepare('SELECT examiner_read FROM apps WHERE id = ?').get(appId) as { examiner_read: number };
    return issueAccessToken(registry, { appId, installationId: null, permissions: app.examiner_read ? { examiner: 'READ' } : {} });
  },

  createInstallationAccessToken({ caller, registry, params }) {
    const appId = appIdOf(caller);
    const installation = ownInstallation(registry, appId, params.installationId);
    if (installation.status !== 'active') throw forbidden('The installation is suspended');
    return issueAccessToken(registry, {
      appId,
      installationId: installation.id,
      permissions: JSON.parse(installation.permissions) as Record<string, string>,
    });
  },

  revokeAccessToken({ caller, registry }) {
    if (caller.kind !== 'token') throw unauthorized('Expected an access token');
    revokeToken(registry, caller.tokenId);
    return { success: true as const };
  },

  listInstallations({ caller, registry, query }) {
    const appId = appIdOf(caller);
    const total = (registry.db.prepare('SELECT COUNT(*) AS n FROM installations WHERE app_id = ?').get(appId) as { n: number }).n;
    const { pagination, offset } = pageOf(total, query.page, query.limit);
    const rows = registry.db
      .prepare(`${INSTALLATION_SELECT} WHERE i.app_id = ? ORDER BY i.created_at, i.id LIMIT ? OFFSET ?`)
      .all(appId, query.limit, offset) as InstallationRow[];
    return { pagination, installations: rows.map((r) => presentInstallation(registry, r)) };
  },

  getInstallation({ caller, registry, params }) {
    return presentInstallation(registry, ownInstallation(registry, appIdOf(caller), params.installationId));
  },
};
