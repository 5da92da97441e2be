// The issuance screen's state: the form (useLedgerForm), the projects that may be issued credits and
// the organizations that may receive them or verify them, and what follows from the values typed.
import { ISSUABLE_PROJECT_STATUSES } from '@shared/registry/vocabulary';
import { useBackOfficeRead } from '@renderer/components/backOffice/useBackOfficeRead';
import { parseTonnes } from '@renderer/lib/decimal';
import { compareNames } from '@renderer/lib/format';
import { useProjectProponentIds } from '../ledger/projectProponents';
import { useLedgerForm } from '../ledger/useLedgerForm';
import { EMPTY, issuanceProblems } from './issuanceForm';

export type Issuance = ReturnType<typeof useIssuance>;

export function useIssuance() {
  // Another project has other proponents: the receiver chosen for the previous one is dropped.
  const ledger = useLedgerForm(EMPTY, (key) => (key === 'projectId' ? { receivingOrganizationId: '' } : {}));
  const { form } = ledger;
  const validated = useBackOfficeRead('operatorListProjects', { query: { limit: 100, status: 'validated' } });
  const registered = useBackOfficeRead('operatorListProjects', { query: { limit: 100, status: 'registered' } });
  const organizations = useBackOfficeRead('operatorListOrganizations', { query: { limit: 100 } });
  const projects = [...(validated.data?.data.projects ?? []), ...(registered.data?.data.projects ?? [])]
    .filter((p) => ISSUABLE_PROJECT_STATUSES.includes(p.status))
    .sort((a, b) => compareNames(a.fullName, b.fullName));
  const orgs = organizations.data?.data.organizations ?? [];
  const project = projects.find((p) => p.id === form.projectId);
  const proponentIds = useProjectProponentIds(form.projectId);
  return {
    ...ledger,
    projects,
    project,
    owner: orgs.find((o) => o.id === project?.organizationId),
    // The registry issues only to the project's verified proponents.
    receivers: orgs.filter((o) => proponentIds?.has(o.id) && o.isVerified),
    verifiers: orgs.filter((o) => o.type === 'validationVerificationBody'),
    problems: issuanceProblems(form),
    amount: parseTonnes(form.amount),
    loadError: validated.error ?? registered.error ?? organizations.error,
    reload: organizations.reload,
  };
}
