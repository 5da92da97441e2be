// 4.6 Installations as an app sees them: only its own (another app's installation id is 404, so an
// app cannot even learn that others' installations exist), oldest first.
import type { InferResult, Kysely } from 'kysely';
import type { Installation } from '@shared/registry/resources';
import { iso } from '@platform/clock';
import type { RegistryContext } from '../context';
import { notFound } from '../errors';
import { organizationRow, presentOrganization } from '../present';
import type { RegistryTables } from '../schema';

/** Installations (`i`) with their app's name id. */
function selectInstallations(q: Kysely<RegistryTables>) {
  return q.selectFrom('installations as i').innerJoin('apps as a', 'a.id', 'i.app_id').selectAll('i').select('a.name_id');
}

/** An installation as `selectInstallations` reads it. */
export type SelectedInstallation = InferResult<ReturnType<typeof selectInstallations>>[number];

export function presentInstallation(ctx: RegistryContext, row: SelectedInstallation): Installation {
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

export const installationPermissions = (row: SelectedInstallation): Record<string, string> =>
  JSON.parse(row.permissions) as Record<string, string>;

/** The app's own installation, or 404. */
export function ownInstallation(ctx: RegistryContext, appId: string, installationId: string): SelectedInstallation {
  const row = ctx.db.first(selectInstallations(ctx.db.q).where('i.id', '=', installationId).where('i.app_id', '=', appId));
  if (!row) throw notFound(`Installation ${installationId} not found`);
  return row;
}

export function countInstallationsOfApp(ctx: RegistryContext, appId: string): number {
  const { db } = ctx;
  const row = db.first(
    db.q
      .selectFrom('installations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('app_id', '=', appId),
  );
  return row?.n ?? 0;
}

export function listInstallationsOfApp(ctx: RegistryContext, appId: string, options: { limit: number; offset: number }): Installation[] {
  const rows = ctx.db.all(
    selectInstallations(ctx.db.q)
      .where('i.app_id', '=', appId)
      .orderBy('i.created_at')
      .orderBy('i.id')
      .limit(options.limit)
      .offset(options.offset),
  );
  return rows.map((r) => presentInstallation(ctx, r));
}
