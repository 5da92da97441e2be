// The resources of the operator interface (/operator/v1/...): what the back office reads and what
// its writes answer. Built with the object factory of the resource schemas (strict for the server's
// tests, tolerant for clients), like every other resource. Amounts are exact whole grams.
// The operator, its audit entries and its token are here; each other group is built in its own
// module (operator-resource-*.ts).
import { z } from 'zod';
import { isoDateTime, type ResourceSchemas } from './resources';
import { ledgerResources } from './operator-resource-ledger';
import { organizationResources } from './operator-resource-organizations';
import { previewResources } from './operator-resource-previews';
import { projectResources } from './operator-resource-projects';
import { trailResources } from './operator-resource-trails';
import { AUDIT_OUTCOMES, OPERATOR_ROLES } from './vocabulary';

export function operatorResources(s: ResourceSchemas) {
  const { object } = s;
  const operator = object({
    id: z.string(),
    name: z.string(),
    role: z.enum(OPERATOR_ROLES),
    active: z.boolean(),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  });
  const auditEntry = object({
    id: z.string(),
    at: isoDateTime,
    operatorId: z.string().nullable(),
    actor: z.string(),
    action: z.string(),
    targetIds: z.array(z.string()),
    outcome: z.enum(AUDIT_OUTCOMES),
    detail: z.record(z.string(), z.unknown()),
  });
  const operatorToken = object({ token: z.string(), expiresAt: isoDateTime });
  const ledger = ledgerResources(object);
  return {
    operator,
    ...ledger,
    ...organizationResources(object, ledger),
    ...projectResources(object),
    auditEntry,
    operatorToken,
    ...previewResources(object, ledger),
    ...trailResources(object, ledger),
  };
}
