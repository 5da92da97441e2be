// The operator's whole organization list, page after page (the pages the back-office sync keeps, so
// the list stays browsable offline).
import { BACK_OFFICE_PAGE_SIZE, type BackOfficeData } from '@shared/desk/back-office';
import { readBackOffice, type BackOfficeRead } from '@renderer/stores/backOffice';

export type OperatorOrganization = BackOfficeData<'operatorListOrganizations'>['organizations'][number];

/** Every page of the operator's organization list (the registry's order), and where it came from. */
export async function allOrganizations(): Promise<{
  organizations: OperatorOrganization[];
  source: 'registry' | 'cache';
  fetchedAt: string;
}> {
  const organizations: OperatorOrganization[] = [];
  let source: 'registry' | 'cache' = 'registry';
  let fetchedAt = '';
  for (let page: number | null = 0; page !== null;) {
    const answer: BackOfficeRead<'operatorListOrganizations'> = await readBackOffice('operatorListOrganizations', {
      query: { limit: BACK_OFFICE_PAGE_SIZE, page },
    });
    organizations.push(...answer.data.organizations);
    if (answer.source === 'cache') source = 'cache';
    fetchedAt = answer.fetchedAt;
    page = answer.data.pagination.nextPage;
  }
  return { organizations, source, fetchedAt };
}
