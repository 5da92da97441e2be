// The organizations an issuance may go to: the chosen project's proponents. The registry refuses
// any other ("Credits can be issued only to a proponent of the project; <id> is not one"), yet the
// form offered every verified organization, so a new user could pick one and meet that refusal,
// with an id for a name, in the review.
import { useMemo } from 'react';
import { useBackOfficeRead } from '@renderer/components/backOffice/useBackOfficeRead';

/** The ids of the project's proponents (its owner among them); null while no project is chosen or read. */
export function useProjectProponentIds(projectId: string): ReadonlySet<string> | null {
  const read = useBackOfficeRead('operatorGetProject', { params: { projectId } }, { enabled: projectId !== '' });
  const proponents = projectId === '' ? undefined : read.data?.data.details.proponents;
  return useMemo(() => (proponents ? new Set(proponents.map((p) => p.id)) : null), [proponents]);
}
