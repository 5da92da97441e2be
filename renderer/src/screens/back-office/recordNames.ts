// Names of the records an audit entry may touch, by id (ids are unique across kinds): the
// organizations, operators, apps and installations the back office lists. What the desk cannot name
// (a project, a credit) is shown by its short id instead.
import { useMemo } from 'react';
import { useBackOfficeRead } from '@renderer/components/backOffice/useBackOfficeRead';
import { useCan } from '@renderer/stores/backOffice';
import { useOperatorNames } from './operatorNames';
import { useOrganizationNames } from './organizationNames';

export function useRecordNames(): Map<string, string> {
  const operatorNames = useOperatorNames();
  const organizationNames = useOrganizationNames();
  const canListApps = useCan('operatorListApps').allowed;
  const apps = useBackOfficeRead('operatorListApps', { query: { limit: 100 } }, { enabled: canListApps });
  return useMemo(() => {
    const names = new Map([...organizationNames, ...operatorNames]);
    for (const app of apps.data?.data.apps ?? []) {
      names.set(app.id, app.name);
      for (const i of app.installations) names.set(i.id, `${app.name} for ${organizationNames.get(i.organizationId) ?? 'an organization'}`);
    }
    return names;
  }, [organizationNames, operatorNames, apps.data]);
}
