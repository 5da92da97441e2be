// Operator names by id, for lists that show who acted (audit trails): read where the role may list
// operator accounts (administrators). Every role knows its own account's name (the session), so a
// viewer or manager sees its own entries by name too; other operators' entries then show the actor
// as the registry wrote it.
import { useMemo } from 'react';
import { useBackOfficeRead } from '@renderer/components/backOffice/useBackOfficeRead';
import { useBackOffice, useCan } from '@renderer/stores/backOffice';

export function useOperatorNames(): Map<string, string> {
  const allowed = useCan('operatorListOperators').allowed;
  const operators = useBackOfficeRead('operatorListOperators', {}, { enabled: allowed });
  const self = useBackOffice((s) => s.session?.operator);
  return useMemo(() => {
    const names = new Map((operators.data?.data.operators ?? []).map((o) => [o.id, o.name]));
    if (self && !names.has(self.id)) names.set(self.id, self.name);
    return names;
  }, [operators.data, self]);
}

/** Who made an audit entry, in words: the operator's name when known, else the actor recorded. */
export function actorName(entry: { operatorId: string | null; actor: string }, names: Map<string, string>): string {
  return (entry.operatorId !== null ? names.get(entry.operatorId) : undefined) ?? entry.actor;
}
