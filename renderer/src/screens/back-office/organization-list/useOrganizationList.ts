// The operator's organization list as the screen shows it: every organization read (again after each
// back-office sync), the search and the filters, the countries the filter offers, and the rows left.
import { useMemo, useState } from 'react';
import { compareNames, countryName } from '@renderer/lib/format';
import { useLoader } from '@renderer/lib/hooks';
import { announce } from '@renderer/lib/signals';
import { useBackOffice } from '@renderer/stores/backOffice';
import { allOrganizations } from './allOrganizations';
import type { YesNo } from './YesNoFilter';

export interface OrganizationFilter {
  verified: YesNo;
  isPublic: YesNo;
  /** An organization type, or '' for any. */
  type: string;
  /** An ISO country code, or '' for any. */
  country: string;
}

export type OrganizationList = ReturnType<typeof useOrganizationList>;

export function useOrganizationList() {
  const version = useBackOffice((s) => s.version);
  const { data, error, loading, reload } = useLoader(
    async () => {
      const found = await allOrganizations();
      announce('desk:back-office-loaded', { screen: 'bo-organizations' });
      return found;
    },
    [],
    version,
  );
  const [query, setQuery] = useState('');
  const [filter, setFilter] = useState<OrganizationFilter>({ verified: '', isPublic: '', type: '', country: '' });
  const filterBy = <K extends keyof OrganizationFilter>(key: K, value: OrganizationFilter[K]) => setFilter((f) => ({ ...f, [key]: value }));

  // By the name shown, not by the ISO code (Canada, Chile, Switzerland; not CA, CH, CL).
  const countries = useMemo(
    () => [...new Set((data?.organizations ?? []).map((o) => o.countryCode))].sort((a, b) => compareNames(countryName(a), countryName(b))),
    [data],
  );
  const rows = useMemo(() => {
    const text = query.trim().toLowerCase();
    const yes = (wanted: YesNo, value: boolean) => wanted === '' || (wanted === 'yes') === value;
    return (data?.organizations ?? []).filter(
      (o) =>
        (text === '' || o.fullName.toLowerCase().includes(text) || o.id.toLowerCase().includes(text)) &&
        yes(filter.verified, o.isVerified) &&
        yes(filter.isPublic, o.isPublic) &&
        (filter.type === '' || o.type === filter.type) &&
        (filter.country === '' || o.countryCode === filter.country),
    );
  }, [data, query, filter]);
  return { data, error, loading, reload, query, setQuery, filter, filterBy, countries, rows };
}
