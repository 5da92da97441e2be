// The issuance screen's state: the form (useLedgerForm), the projects that may be issued credits and
// the organizations that may receive them or verify them, and what follows from the values typed.
import { ISSUABLE_PROJECT_STATUSES } from '@shared/registry/vocabulary';
import { useBackOfficeRead } from '@renderer/components/backOffice/useBackOfficeRead';
import { parseTonnes } from '@renderer/lib/decimal';
import { compareNames } from '@renderer/lib/format';
import { useLedgerForm } from '../ledger/useLedgerForm';
import { EMPTY, issuanceProblems } from './issuanceForm';

export type Issuance = ReturnType<typeof useIssuance>;

export function useIssuance() {
  const ledger = useLedgerForm(EMPTY);
  const { form } = ledger;
  const validated = useBackOfficeRead('operatorListProjects', { query: { limit: 100, status: 'validated' } });
  const registered = useBackOfficeRead('operatorListProjects', { query: { limit: 100, status: 'registered' } });
  const organizations = useBackOfficeRead('operatorListOrganizations', { query: { limit: 100 } });
  const projects = [...(validated.data?.data.projects ?? []), ...(registered.data?.data.projects ?? [])]
    .filter((p) => ISSUABLE_PROJECT_STATUSES.includes(p.status))
    .sort((a, b) => compareNames(a.fullName, b.fullName));
  const orgs = organizations.data?.data.organizations ?? [];
  const project = projects.find((p) => p.id === form.projectId);
  return {
    ...ledger,
    projects,
    project,
    owner: orgs.find((o) => o.id === project?.organizationId),
    receivers: orgs.filter((o) => o.isVerified && !o.isRegistry && o.type !== 'validationVerificationBody'),
    verifiers: orgs.filter((o) => o.type === 'validationVerificationBody'),
    problems: issuanceProblems(form),
    amount: parseTonnes(form.amount),
    loadError: validated.error ?? registered.error ?? organizations.error,
    reload: organizations.reload,
  };
}
