// What an issuance checks before it changes anything: the project may be issued for, and the
// receiving organization is one of its proponents and has passed business verification.
import { ISSUABLE_PROJECT_STATUSES } from '@shared/registry/vocabulary';
import type { RegistryContext } from '@registry/context';
import { conflict, notFound } from '@registry/errors';
import { requireOrganization } from './lookups';

/** The project credits are issued for: a 404 when it does not exist, a 409 when its status forbids it. */
export function requireIssuableProject(ctx: RegistryContext, projectId: string) {
  const { db } = ctx;
  const project = db.first(
    db.q
      .selectFrom('projects')
      .select(['id', 'num', 'status', 'country_code', 'type_id', 'organization_id', 'contract_address'])
      .where('id', '=', projectId),
  );
  if (!project) throw notFound(`Project ${projectId} not found`);
  if (!ISSUABLE_PROJECT_STATUSES.includes(project.status)) {
    throw conflict(`Credits can be issued only for ${ISSUABLE_PROJECT_STATUSES.join(' or ')} projects; this one is ${project.status}`);
  }
  return project;
}

export type IssuableProject = ReturnType<typeof requireIssuableProject>;

/** The receiver must exist (404), be the owner or a proponent of the project, and be verified (409). */
export function requireIssuanceReceiver(ctx: RegistryContext, project: IssuableProject, receiverId: string): void {
  const { db } = ctx;
  const proponent = requireOrganization(ctx, receiverId);
  if (
    receiverId !== project.organization_id &&
    !db.first(
      db.q
        .selectFrom('project_organizations')
        .select('project_id')
        .where('project_id', '=', project.id)
        .where('organization_id', '=', receiverId)
        .where('role', '=', 'proponent'),
    )
  ) {
    throw conflict(`Credits can be issued only to a proponent of the project; ${receiverId} is not one`);
  }
  if (proponent.is_verified !== 1) {
    throw conflict(`Credits can be issued only to a verified organization; ${receiverId} has not passed business verification`);
  }
}
