// What an issuance checks before it changes anything: the project may be issued for, and the
// receiving organization is one of its proponents and has passed business verification.
import { ISSUABLE_PROJECT_STATUSES } from '@shared/registry/vocabulary';
import type { RegistryContext } from '@registry/context';
import { conflict, notFound } from '@registry/errors';
import { requireOrganization } from './lookups';
import { organizationName } from './refusal-words';

/** The project credits are issued for: a 404 when it does not exist, a 409 when its status forbids it. */
export function requireIssuableProject(ctx: RegistryContext, projectId: string) {
  const { db } = ctx;
  const project = db.first(
    db.q
      .selectFrom('projects')
      .select(['id', 'num', 'full_name', 'status', 'country_code', 'type_id', 'organization_id', 'contract_address'])
      .where('id', '=', projectId),
  );
  if (!project) throw notFound(`Project ${projectId} not found`);
  if (!ISSUABLE_PROJECT_STATUSES.includes(project.status)) {
    throw conflict(
      `projectId: project ${project.num} · ${project.full_name} is ${project.status}; credits are issued only for ` +
        `${ISSUABLE_PROJECT_STATUSES.join(' or ')} projects`,
    );
  }
  return project;
}

export type IssuableProject = ReturnType<typeof requireIssuableProject>;

/**
 * The receiver must exist (404), be the owner or a proponent of the project, and be verified (409).
 * `named`: the body named it (receivingOrganizationId); else it is the project's owner.
 */
export function requireIssuanceReceiver(ctx: RegistryContext, project: IssuableProject, receiverId: string, named: boolean): void {
  const { db } = ctx;
  const proponent = requireOrganization(ctx, receiverId);
  const name = organizationName(ctx, receiverId);
  const ids = ` (organization ${receiverId})`;
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
    throw conflict(
      `receivingOrganizationId: ${name} is not a proponent of project ${project.num} · ${project.full_name}; credits are ` +
        `issued only to its proponents${ids}`,
    );
  }
  if (proponent.is_verified !== 1) {
    const who = named ? `receivingOrganizationId: ${name}` : `projectId: the project's owner, ${name},`;
    throw conflict(`${who} has not passed business verification; credits are issued only to verified organizations${ids}`);
  }
}
