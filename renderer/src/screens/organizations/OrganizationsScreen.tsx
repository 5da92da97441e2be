// Organizations known to the registry, with their details (the desk's organization page, which other
// screens open through the navigation store); the ones that installed this app are marked.
import { useMemo, useState } from 'react';
import { desk, describeError } from '@renderer/lib/desk';
import { useLoader } from '@renderer/lib/hooks';
import { countryName, formatCount, formatDate, humanize } from '@renderer/lib/format';
import { useNavigation } from '@renderer/stores/navigation';
import { useSync } from '@renderer/stores/sync';
import { Facts } from '@renderer/components/DefinitionList';
import { ExternalLink } from '@renderer/components/ExternalLink';
import { EmptyState, ErrorMessage, Loading } from '@renderer/components/feedback';
import { StatusBadge } from '@renderer/components/StatusBadge';
import { moveAmongRows } from '@renderer/lib/rowKeyboard';
import { DetailsPanel } from '@renderer/components/DetailsPanel';
import { useRecordTitle } from '@renderer/lib/pageTitle';

/** An organization's row's name (it opens the details), to give focus back to. */
const rowOf = (id: string) => () => document.querySelector(`tr[data-organization-id="${CSS.escape(id)}"] button`);
const theList = () => document.querySelector('table[aria-label="Organizations"]');

/** The count of the rows shown: "16 organizations", or "1 of 16 organizations match" while filtered. */
function organizationCount(shown: number, all: number): string {
  const noun = (n: number) => (n === 1 ? 'organization' : 'organizations');
  return shown === all ? `${formatCount(all)} ${noun(all)}` : `${formatCount(shown)} of ${formatCount(all)} ${noun(all)} match`;
}

export function OrganizationsScreen() {
  const dataVersion = useSync((s) => s.dataVersion);
  const list = useLoader(() => desk('organizations.list', {}), [], dataVersion);
  const [filter, setFilter] = useState('');
  // Open through the navigation store, so other screens can link to an organization's page here.
  const openId = useNavigation((s) => s.organizationId);
  const setOpenId = useNavigation((s) => s.openOrganization);
  const organizations = useMemo(() => {
    const words = filter.trim().toLowerCase();
    const all = [...(list.data?.organizations ?? [])].sort((a, b) => a.fullName.localeCompare(b.fullName));
    return words ? all.filter((o) => `${o.fullName} ${o.city} ${o.countryCode} ${o.type}`.toLowerCase().includes(words)) : all;
  }, [list.data, filter]);
  const openName = useNavigation((s) => s.organizationName);
  const open = list.data?.organizations.find((o) => o.id === openId) ?? null;
  // Linked from another screen but not among the organizations this app may see: say so on its page.
  const unknown = openId && !open && list.data ? { id: openId, name: openName ?? 'Organization' } : null;
  useRecordTitle(open ? `Organization: ${open.fullName}` : unknown ? `Organization: ${unknown.name}` : null);

  return (
    <div className="screen">
      <header className="screen-header">
        <div>
          <h1>Organizations</h1>
          <p className="screen-subtitle" aria-live="polite">
            {list.data ? organizationCount(organizations.length, list.data.organizations.length) : 'Loading organizations…'}
          </p>
        </div>
      </header>
      <div className="toolbar" role="search">
        <input
          type="search"
          className="search-input"
          aria-label="Filter organizations"
          placeholder="Filter by name, city, country or type"
          value={filter}
          data-search-field
          onChange={(e) => setFilter(e.target.value)}
        />
      </div>
      <ErrorMessage error={list.error ? describeError(list.error) : null} onRetry={list.reload} />
      {list.loading && !list.data ? (
        <Loading />
      ) : organizations.length === 0 ? (
        <EmptyState title={filter ? 'No organization matches' : 'No organizations yet'}>
          {filter ? 'Try other words.' : 'Sync to fetch the organizations this app may see.'}
        </EmptyState>
      ) : (
        <div className={open || unknown ? 'split' : undefined}>
          <div className="table-wrap">
            <table className="simple-table" aria-label="Organizations">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Type</th>
                  <th scope="col">Country</th>
                  <th scope="col">City</th>
                  <th scope="col">This app</th>
                </tr>
              </thead>
              <tbody onKeyDown={moveAmongRows}>
                {organizations.map((o) => (
                  <tr
                    key={o.id}
                    data-organization-id={o.id}
                    className={o.id === openId ? 'row-current' : undefined}
                    onClick={() => setOpenId(o.id)}
                  >
                    <td>
                      <button type="button" className="button-link" onClick={() => setOpenId(o.id)}>
                        {o.fullName}
                      </button>
                    </td>
                    <td>{humanize(o.type)}</td>
                    <td>{countryName(o.countryCode)}</td>
                    <td>{o.city || '—'}</td>
                    <td>{o.installed ? <StatusBadge value="active" label="Installed" /> : <span className="muted">—</span>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {unknown && (
            <DetailsPanel label="Organization details" openKey={unknown.id} returnTo={rowOf(unknown.id)} fallback={theList}>
              <header className="details-header">
                <h2>{unknown.name}</h2>
                <button type="button" className="icon-button" title="Close details" onClick={() => setOpenId(null)}>
                  <span aria-hidden="true">×</span>
                  <span className="visually-hidden">Close details</span>
                </button>
              </header>
              <p className="muted">
                This organization is not among those synced from this registry (it shares only public organizations with this app), so only
                its name and id are known here.
              </p>
              <Facts items={[['Registry id', <span className="mono">{unknown.id}</span>]]} />
            </DetailsPanel>
          )}
          {open && (
            <DetailsPanel label="Organization details" openKey={open.id} returnTo={rowOf(open.id)} fallback={theList}>
              <header className="details-header">
                <h2>{open.fullName}</h2>
                <button type="button" className="icon-button" title="Close details" data-closes-on-escape onClick={() => setOpenId(null)}>
                  <span aria-hidden="true">×</span>
                  <span className="visually-hidden">Close details</span>
                </button>
              </header>
              <Facts
                items={[
                  ['Type', humanize(open.type)],
                  [
                    'Industry',
                    open.organizationIndustries.name ? `${open.organizationIndustries.name} (${open.organizationIndustries.code})` : null,
                  ],
                  ['Registration number', open.registrationNumber],
                  ['Address', [open.physicalAddress, open.zip, open.city].filter(Boolean).join(', ')],
                  ['Country', countryName(open.countryCode)],
                  ['Website', <ExternalLink href={open.website}>{open.website}</ExternalLink>],
                  // Its `url` is the registry's API record (JSON behind credentials), not a web page: this panel is its page.
                  ['Registry id', <span className="mono">{open.id}</span>],
                  ['Public', open.isPublic ? 'Yes' : 'No'],
                  ['Installed this app', open.installed ? 'Yes' : 'No'],
                  ['Member since', formatDate(open.createdAt)],
                ]}
              />
            </DetailsPanel>
          )}
        </div>
      )}
    </div>
  );
}
