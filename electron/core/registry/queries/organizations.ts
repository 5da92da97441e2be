// GET /v1/organizations/{id} (4.7). A public organization is visible to any access token. One with
// isPublic false is visible only to an installation token of that same organization or to an app
// holding examiner:read; everyone else gets the same 404 as for an unknown id, so its existence
// does not leak.
import type { Organization } from '@shared/registry/resources';
import type { RegistryContext } from '../context';
import { notFound } from '../errors';
import { organizationRow, presentOrganization } from '../present';

export interface OrganizationViewer {
  /** The organization of the caller's installation token, null for an app token. */
  organizationId: string | null;
  examinerRead: boolean;
}

export function organizationFor(ctx: RegistryContext, id: string, viewer: OrganizationViewer): Organization {
  const row = organizationRow(ctx, id);
  const visible = row !== undefined && (row.is_public === 1 || viewer.examinerRead || viewer.organizationId === row.id);
  if (!row || !visible) throw notFound(`Organization ${id} not found`);
  return presentOrganization(ctx, row);
}
