// The organizations left by the search and filters, one row each (marked with its id, so going back
// from an organization's page can return focus to its row: OpenOrganization.tsx); a name opens the
// organization's page.
import { countryName, formatCount, humanize } from '@renderer/lib/format';
import { useNavigation } from '@renderer/stores/navigation';
import { StatusBadge } from '@renderer/components/StatusBadge';
import type { OperatorOrganization } from './allOrganizations';

export function OrganizationsTable({ rows }: { rows: readonly OperatorOrganization[] }) {
  const open = useNavigation((s) => s.openBackOffice);
  return (
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
  );
}
