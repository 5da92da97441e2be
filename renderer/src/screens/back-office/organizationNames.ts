// Organization names by id for the back office's own screens (installations, projects, forms), read
// from the operator's organization list (every organization, verified or not, public or not).
import { useMemo } from 'react';
import { MAX_PAGE_SIZE } from '@shared/registry/vocabulary';
import { useBackOfficeRead } from '@renderer/components/backOffice/useBackOfficeRead';

/** The first page of the largest size: the organizations a form offers (a registry holds few). */
export function useOrganizationNames(): Map<string, string> {
  const read = useBackOfficeRead('operatorListOrganizations', { query: { limit: MAX_PAGE_SIZE } });
  return useMemo(() => new Map((read.data?.data.organizations ?? []).map((o) => [o.id, o.fullName])), [read.data]);
}

/** Each organization's type by id (projectProponent, validationVerificationBody, buyer, registryOperator). */
export function useOrganizationTypes(): Map<string, string> {
  const read = useBackOfficeRead('operatorListOrganizations', { query: { limit: MAX_PAGE_SIZE } });
  return useMemo(() => new Map((read.data?.data.organizations ?? []).map((o) => [o.id, o.type])), [read.data]);
}
