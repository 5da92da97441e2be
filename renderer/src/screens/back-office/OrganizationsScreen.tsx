// Back office: Organizations. Every organization of the registry (verified or not, public or not),
// searched and filtered; an organization's page (OrganizationPage.tsx); creating one after a review
// of what will be sent. Reads are the operator list's pages (the pages the back-office sync keeps,
// so the list stays browsable offline).
import { useMemo, useState } from 'react';
import { ORGANIZATION_TYPES } from '@shared/registry/vocabulary';
import { compareNames, countryName, formatCount, formatDate, humanize } from '@renderer/lib/format';
import { describeError } from '@renderer/lib/desk';
import { useLoader } from '@renderer/lib/hooks';
import { announce } from '@renderer/lib/signals';
import { useBackOffice } from '@renderer/stores/backOffice';
import { useNavigation } from '@renderer/stores/navigation';
import { EmptyState, ErrorMessage, Loading } from '@renderer/components/feedback';
import { StatusBadge } from '@renderer/components/StatusBadge';
import { GatedButton } from '@renderer/components/backOffice/RoleGate';
import { BackOfficePage } from './BackOfficePage';
import { CreateOrganizationDialog } from './CreateOrganizationDialog';
import { OpenOrganization } from './OpenOrganization';
import { allOrganizations } from './organization-list/allOrganizations';
import { YesNoFilter, type YesNo } from './organization-list/YesNoFilter';

export function OrganizationsScreen() {
  const organizationId = useNavigation((s) => s.backOffice.organizationId);
  const [creating, setCreating] = useState(false);
  return (
    <BackOfficePage
      title={organizationId ? 'Organization' : 'Organizations (operator)'}
      actions={
        !organizationId && (
          <GatedButton can="operatorCreateOrganization" className="button button-primary" onClick={() => setCreating(true)}>
            New organization
          </GatedButton>
        )
      }
    >
      {organizationId ? <OpenOrganization organizationId={organizationId} /> : <OrganizationList />}
      {creating && <CreateOrganizationDialog onClose={() => setCreating(false)} />}
    </BackOfficePage>
  );
}

function OrganizationList() {
  const version = useBackOffice((s) => s.version);
  const open = useNavigation((s) => s.openBackOffice);
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
  const [verified, setVerified] = useState<YesNo>('');
  const [isPublic, setIsPublic] = useState<YesNo>('');
  const [type, setType] = useState('');
  const [country, setCountry] = useState('');

  // By the name shown, not by the ISO code (Canada, Chile, Switzerland; not CA, CH, CL).
  const countries = useMemo(
    () => [...new Set((data?.organizations ?? []).map((o) => o.countryCode))].sort((a, b) => compareNames(countryName(a), countryName(b))),
    [data],
  );
  const rows = useMemo(() => {
    const text = query.trim().toLowerCase();
    const yes = (filter: YesNo, value: boolean) => filter === '' || (filter === 'yes') === value;
    return (data?.organizations ?? []).filter(
      (o) =>
        (text === '' || o.fullName.toLowerCase().includes(text) || o.id.toLowerCase().includes(text)) &&
        yes(verified, o.isVerified) &&
        yes(isPublic, o.isPublic) &&
        (type === '' || o.type === type) &&
        (country === '' || o.countryCode === country),
    );
  }, [data, query, verified, isPublic, type, country]);

  if (loading && !data) return <Loading label="Loading organizations…" />;
  if (error && !data) return <ErrorMessage error={describeError(error)} onRetry={reload} />;
  const all = data?.organizations.length ?? 0;
  return (
    <>
      <div className="toolbar">
        <input
          type="search"
          className="search-input"
          placeholder="Search organizations by name or id"
          aria-label="Search organizations"
          data-search-field
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
      </div>
      <div className="filters" role="group" aria-label="Filters">
        <YesNoFilter label="Verified" value={verified} onChange={setVerified} />
        <YesNoFilter label="Public" value={isPublic} onChange={setIsPublic} />
        <label className="filter">
          <span>Type</span>
          <select value={type} onChange={(e) => setType(e.target.value)}>
            <option value="">Any</option>
            {ORGANIZATION_TYPES.map((t) => (
              <option key={t} value={t}>
                {humanize(t)}
              </option>
            ))}
          </select>
        </label>
        <label className="filter">
          <span>Country</span>
          <select value={country} onChange={(e) => setCountry(e.target.value)}>
            <option value="">Any</option>
            {countries.map((c) => (
              <option key={c} value={c}>
                {countryName(c)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <p className="screen-subtitle" aria-live="polite">
        {rows.length === all ? `${formatCount(all)} organizations` : `${formatCount(rows.length)} of ${formatCount(all)} organizations`}
        {data?.source === 'cache' && ` · offline: as of ${formatDate(data.fetchedAt)}`}
      </p>
      {rows.length === 0 ? (
        <EmptyState title="No organization matches">Change the search or the filters.</EmptyState>
      ) : (
        <div className="table-scroll">
          <table className="simple-table" aria-label="Back-office organizations">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
                <th scope="col">Country</th>
                <th scope="col">Verified</th>
                <th scope="col">Public</th>
                <th scope="col">Accounts</th>
                <th scope="col">Projects</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((o) => (
                <tr key={o.id} data-organization-id={o.id}>
                  <td>
                    <button type="button" className="button-link" onClick={() => open('bo-organizations', { organizationId: o.id })}>
                      {o.fullName}
                    </button>
                    {o.isRegistry && <span className="muted"> (registry)</span>}
                  </td>
                  <td>{humanize(o.type)}</td>
                  <td>{countryName(o.countryCode)}</td>
                  <td>
                    <StatusBadge value={o.isVerified ? 'validated' : 'draft'} label={o.isVerified ? 'Verified' : 'Not verified'} />
                  </td>
                  <td>{o.isPublic ? 'Public' : 'Hidden'}</td>
                  <td>{formatCount(o.accounts.length)}</td>
                  <td>{formatCount(o.projects.length)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
