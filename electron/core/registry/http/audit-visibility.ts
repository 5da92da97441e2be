// The audit log agrees with the lists it records: an entry of an administrator-only write (creating or
// disabling an operator) shows its detail (names, roles, inputs, results) to administrators only,
// as GET /operator/v1/operators does. Everyone keeps seeing who did what, when, to which ids, and
// how it ended: the operator ids are in every entry anyway, as its author.
import { endpointIds, endpoints, type EndpointDefinition } from '@shared/registry/endpoints';
import type { OperatorRole } from '@shared/registry/vocabulary';
import type { AuditEntry } from '../audit';

/** The actions of the writes only administrators may make, from the endpoint table. */
const ADMINISTRATOR_ACTIONS: ReadonlySet<string> = new Set(
  endpointIds.flatMap((id) => {
    const e = endpoints[id] as EndpointDefinition;
    return e.audit !== undefined && e.auth.kind === 'operator' && e.auth.role === 'administrator' ? [e.audit] : [];
  }),
);

export const REDACTED_DETAIL = { redacted: 'shown to administrators only, like the list of operators' } as const;

export function visibleAudit<P extends { entries: AuditEntry[] }>(page: P, role: OperatorRole): P {
  if (role === 'administrator') return page;
  return {
    ...page,
    entries: page.entries.map((e) => (ADMINISTRATOR_ACTIONS.has(e.action) ? { ...e, detail: { ...REDACTED_DETAIL } } : e)),
  };
}
