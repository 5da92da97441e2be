// The operator interface (/operator/v1/...): the back office's reads, and one write per operator
// operation of the CLI. The pipeline (http/app.ts) checks the operator's role, audits every write
// attempt and replays idempotent ones; a write handler only runs the operation, synchronously, inside
// the transaction that also holds its audit entry. Write handlers pass the operation the body as it
// was received (the pipeline validated it with the operation's own schema, which parses it again).
import type { z } from 'zod';
import type { EndpointId } from '@shared/registry/endpoints';
import type { Caller } from '@registry/auth/caller';
import { issueOperatorToken, type OperatorCaller } from '@registry/auth/operator-tokens';
import { searchAudit } from '@registry/audit-search';
import { visibleAudit } from '../audit-visibility';
import { unauthorized } from '@registry/errors';
import * as ops from '@registry/operations';
import { previewOperation } from '@registry/operations/preview';
import { creditTrail } from '@registry/queries/credit-trail';
import * as q from '@registry/queries/operator';
import { pageOf } from '../pagination';
import type { Handlers, HandlerInput } from '../types';

type OperatorEndpointId = Extract<EndpointId, `operator${string}` | 'createOperatorToken'>;

function operatorOf(caller: Caller): OperatorCaller {
  if (caller.kind !== 'operator') throw unauthorized('Operator endpoints need an operator token');
  return caller;
}

/** The received body with the path parameters the operation also needs, as the operation's input. */
function inputOf<S extends z.ZodType>(input: HandlerInput<EndpointId>, extra: Record<string, unknown> = {}): z.input<S> {
  const raw = typeof input.rawBody === 'object' && input.rawBody !== null ? input.rawBody : {};
  return { ...raw, ...extra } as z.input<S>;
}

export const operatorHandlers: Pick<Handlers, OperatorEndpointId> = {
  createOperatorToken: ({ caller, registry }) => issueOperatorToken(registry, operatorOf(caller).operatorId),

  operatorGetSelf: ({ caller, registry }) => ({ operator: ops.requireOperator(registry, operatorOf(caller).operatorId) }),

  operatorListOrganizations: ({ registry, query }) => {
    const { offset, pagination } = pageOf(q.countRows(registry, 'organizations'), query.page, query.limit);
    return { pagination, organizations: q.operatorOrganizations(registry, offset, query.limit).organizations };
  },
  operatorGetOrganization: ({ registry, params }) => ({ organization: q.operatorOrganization(registry, params.organizationId) }),
  operatorCreateOrganization: (input) => {
    const { id } = ops.createOrganization(input.registry, inputOf<typeof ops.createOrganizationInput>(input));
    return { organization: q.operatorOrganization(input.registry, id) };
  },
  operatorUpdateOrganization: (input) =>
    ops.updateOrganization(
      input.registry,
      inputOf<typeof ops.updateOrganizationInput>(input, { organizationId: input.params.organizationId }),
    ),
  operatorSetOrganizationVerified: (input) =>
    ops.setOrganizationVerified(
      input.registry,
      inputOf<typeof ops.setOrganizationVerifiedInput>(input, { organizationId: input.params.organizationId }),
    ),

  operatorListProjects: ({ registry, query }) => {
    const total = q.countOperatorProjects(registry, query.status);
    const { offset, pagination } = pageOf(total, query.page, query.limit);
    return { pagination, projects: q.operatorProjects(registry, offset, query.limit, query.status).projects };
  },
  operatorGetProject: ({ registry, params }) => q.operatorProjectWithDetails(registry, params.projectId),
  operatorUpdateProject: (input) =>
    ops.updateProject(input.registry, inputOf<typeof ops.updateProjectInput>(input, { projectId: input.params.projectId })),
  operatorCreateProject: (input) => ops.createProject(input.registry, inputOf<typeof ops.createProjectInput>(input)),
  operatorSetProjectStatus: (input) =>
    ops.changeProjectStatus(input.registry, inputOf<typeof ops.changeProjectStatusInput>(input, { projectId: input.params.projectId })),

  operatorIssueCredits: (input) => ops.issueCredits(input.registry, inputOf<typeof ops.issueCreditsInput>(input)),
  operatorDeposit: (input) => ops.depositToWarehouse(input.registry, inputOf<typeof ops.warehouseMoveInput>(input)),
  operatorWithdraw: (input) => ops.withdrawFromWarehouse(input.registry, inputOf<typeof ops.warehouseMoveInput>(input)),
  operatorTransfer: (input) => ops.transferCredits(input.registry, inputOf<typeof ops.transferCreditsInput>(input)),
  operatorCancel: (input) => ops.cancelCredits(input.registry, inputOf<typeof ops.cancelCreditsInput>(input)),
  operatorRetire: (input) => ops.retireFromInventory(input.registry, inputOf<typeof ops.retireFromInventoryInput>(input)),
  operatorRecordOnchainRetirement: (input) =>
    ops.recordOnchainRetirement(input.registry, inputOf<typeof ops.recordOnchainRetirementInput>(input)),

  operatorListAccounts: ({ registry, query }) => {
    const total = q.countRows(registry, 'accounts');
    const { offset, pagination } = pageOf(total, query.page, query.limit);
    return { pagination, accounts: q.operatorAccounts(registry, offset, query.limit).accounts };
  },
  operatorCreditHistory: ({ registry, query }) => q.creditHistory(registry, query),
  operatorCreditTrail: ({ registry, query }) => creditTrail(registry, query),
  operatorPreview: ({ registry, params, query }) => previewOperation(registry, params.operation, query),

  operatorListApps: ({ registry, query }) => {
    const total = q.countRows(registry, 'apps');
    const { offset, pagination } = pageOf(total, query.page, query.limit);
    return { pagination, apps: q.operatorApps(registry, offset, query.limit).apps };
  },
  operatorCreateApp: (input) => ops.createApp(input.registry, inputOf<typeof ops.createAppInput>(input)),
  operatorSetExaminer: (input) =>
    ops.grantExaminer(input.registry, inputOf<typeof ops.grantExaminerInput>(input, { appId: input.params.appId })),
  operatorInstallApp: (input) => ops.installApp(input.registry, inputOf<typeof ops.installAppInput>(input)),
  operatorSetInstallationStatus: (input) =>
    ops.setInstallationStatus(
      input.registry,
      inputOf<typeof ops.setInstallationStatusInput>(input, { installationId: input.params.installationId }),
    ),
  operatorRemoveInstallation: (input) => ops.removeInstallation(input.registry, { installationId: input.params.installationId }),

  operatorListOperators: ({ registry }) => ({ operators: ops.listOperators(registry) }),
  operatorCreateOperator: (input) => ops.createOperator(input.registry, inputOf<typeof ops.createOperatorInput>(input)),
  operatorSetOperatorActive: (input) =>
    ops.setOperatorActive(input.registry, inputOf<typeof ops.setOperatorActiveInput>(input, { operatorId: input.params.operatorId })),
  operatorSearchAudit: ({ registry, query, caller }) => visibleAudit(searchAudit(registry, query), operatorOf(caller).role),
};
