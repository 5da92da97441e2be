// Organizations known to the registry, with their details (the desk's organization page, which other
// screens open through the navigation store); the ones that installed this app are marked.
import type { DeskOutput } from '@shared/desk/api';
import { describeError } from '@renderer/lib/desk';
import { countryName, formatCount, humanize } from '@renderer/lib/format';
import { EmptyState, ErrorMessage, Loading } from '@renderer/components/feedback';
import { StatusBadge } from '@renderer/components/StatusBadge';
import { moveAmongRows } from '@renderer/lib/rowKeyboard';
import { OrganizationDetails, UnknownOrganization } from './OrganizationDetails';
import { useOrganizationList } from './useOrganizationList';

/** The count of the rows shown: "16 organizations", or "1 of 16 organizations match" while filtered. */
function organizationCount(shown: number, all: number): string {
  const noun = (n: number) => (n === 1 ? 'organization' : 'organizations');
  return shown === all ? `${formatCount(all)} ${noun(all)}` : `${formatCount(shown)} of ${formatCount(all)} ${noun(all)} match`;
}

function OrganizationsTable({
  organizations,
  openId,
  onOpen,
}: {
  organizations: DeskOutput<'organizations.list'>['organizations'];
  openId: string | null;
  onOpen: (id: string) => void;
}) {
  return (
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
            <tr key={o.id} data-organization-id={o.id} className={o.id === openId ? 'row-current' : undefined} onClick={() => onOpen(o.id)}>
              <td>
                <button type="button" className="button-link" onClick={() => onOpen(o.id)}>
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
  );
}

export function OrganizationsScreen() {
  const { list, filter, setFilter, organizations, openId, setOpenId, open, unknown } = useOrganizationList();

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
          <OrganizationsTable organizations={organizations} openId={openId} onOpen={setOpenId} />
          {unknown && <UnknownOrganization unknown={unknown} onClose={() => setOpenId(null)} />}
          {open && <OrganizationDetails open={open} onClose={() => setOpenId(null)} />}
        </div>
      )}
    </div>
  );
}
