// Operator names by id, for lists that show who acted (audit trails): read where the role may list
// operator accounts; elsewhere the map is empty and the trail shows the actor as the registry wrote it.
import { useMemo } from 'react';
import { useBackOfficeRead } from '@renderer/components/backOffice/useBackOfficeRead';
import { useCan } from '@renderer/stores/backOffice';

export function useOperatorNames(): Map<string, string> {
  const allowed = useCan('operatorListOperators').allowed;
  const operators = useBackOfficeRead('operatorListOperators', {}, { enabled: allowed });
  return useMemo(() => new Map((operators.data?.data.operators ?? []).map((o) => [o.id, o.name])), [operators.data]);
}

/** Who made an audit entry, in words: the operator's name when known, else the actor recorded. */
export function actorName(entry: { operatorId: string | null; actor: string }, names: Map<string, string>): string {
  return (entry.operatorId !== null ? names.get(entry.operatorId) : undefined) ?? entry.actor;
}
