// An organization's back-office page: what it is (edited after a review: EditOrganizationDialog.tsx),
// its verification (recorded or withdrawn after a review), its accounts and balances, its ledger movements (from the back-office cache, a page at a
// time: fast for long histories), its projects, installations and audit trail, and links to its
// retirements and warehouse: every link stays inside the desk.
import { useState } from 'react';
import { countryName, formatDateTime, formatGramsValue, humanize } from '@renderer/lib/format';
import { describeError } from '@renderer/lib/desk';
import { useNavigation } from '@renderer/stores/navigation';
import { Facts } from '@renderer/components/DefinitionList';
import { ErrorMessage, Loading } from '@renderer/components/feedback';
import { StatusBadge } from '@renderer/components/StatusBadge';
import { GatedButton } from '@renderer/components/backOffice/RoleGate';
import { useBackOfficeRead } from '@renderer/components/backOffice/useBackOfficeRead';
import { EditOrganizationDialog } from './EditOrganizationDialog';
import { permissionsWords } from '@renderer/lib/registryWords';
import { useRecordTitle } from '@renderer/lib/pageTitle';
import { AuditTrail } from './organization-page/AuditTrail';
import { Movements } from './organization-page/Movements';
import { VerifyDialog } from './organization-page/VerifyDialog';

export function OrganizationPage({ organizationId }: { organizationId: string }) {
  const go = useNavigation((s) => s.go);
  const open = useNavigation((s) => s.openBackOffice);
  const openProject = useNavigation((s) => s.openProject);
  const openOrganization = useNavigation((s) => s.openOrganization);
  const { data, error, loading, reload } = useBackOfficeRead('operatorGetOrganization', { params: { organizationId } });
  const [verifying, setVerifying] = useState(false);
  const [editing, setEditing] = useState(false);
  useRecordTitle(data ? `Organization: ${data.data.organization.fullName}` : null);
  if (loading && !data) return <Loading label="Loading the organization…" />;
  if (!data) return <ErrorMessage error={error ? describeError(error) : 'Not found'} onRetry={reload} />;
  const o = data.data.organization;
  const accountName = (id: string | null) => {
    if (id === null) return '—';
    const account = o.accounts.find((a) => a.id === id);
    return account ? `${humanize(account.kind)} (this organization)` : id;
  };
  return (
    <div className="page-sections">
      <button type="button" className="button-link back-link" data-closes-on-escape onClick={() => go('bo-organizations')}>
        ← All organizations
      </button>
      <header className="section-header">
        <h2>{o.fullName}</h2>
        <StatusBadge value={o.isVerified ? 'validated' : 'draft'} label={o.isVerified ? 'Verified' : 'Not verified'} />
        <GatedButton can="operatorUpdateOrganization" className="button" onClick={() => setEditing(true)}>
          Edit
        </GatedButton>
        <GatedButton can="operatorSetOrganizationVerified" className="button" onClick={() => setVerifying(true)}>
          {o.isVerified ? 'Withdraw verification' : 'Record verification'}
        </GatedButton>
      </header>
      {data.source === 'cache' && <p className="notice">Offline: this page is as it was read {formatDateTime(data.fetchedAt)}.</p>}
      <Facts
        items={[
          ['Id', <span className="mono">{o.id}</span>],
          ['Type', humanize(o.type)],
          ['Country', countryName(o.countryCode)],
          ['City', o.city],
          ['Postal code', o.zip],
          ['Address', o.physicalAddress],
          ['Registration number', o.registrationNumber],
          ['Website', o.website],
          ['Logo', o.logo],
          ['Industry', [o.organizationIndustries.code, o.organizationIndustries.name].filter((s) => s !== '').join(' · ')],
          ['Public', o.isPublic ? 'Yes' : 'No'],
          ['Registry operator', o.isRegistry ? 'Yes' : 'No'],
          ['Created', formatDateTime(o.createdAt)],
          ['Updated', formatDateTime(o.updatedAt)],
          [
            'Elsewhere in the desk',
            <span className="link-row">
              <button type="button" className="button-link" onClick={() => openOrganization(o.id, o.fullName)}>
                Public profile and retirements
              </button>
              {' · '}
              <button type="button" className="button-link" onClick={() => go('warehouse')}>
                Warehouse
              </button>
            </span>,
          ],
        ]}
      />

      <section aria-labelledby="bo-accounts">
        <h3 id="bo-accounts">Accounts and balances</h3>
        {o.accounts.length === 0 && <p className="muted">This organization has no accounts.</p>}
        <table hidden={o.accounts.length === 0} className="simple-table" aria-label="Accounts and balances">
          <thead>
            <tr>
              <th scope="col">Account</th>
              <th scope="col">Credit</th>
              <th scope="col">Balance</th>
            </tr>
          </thead>
          <tbody>
            {o.accounts.flatMap((a) =>
              a.balances.length === 0
                ? [
                    <tr key={a.id}>
                      <td>{humanize(a.kind)}</td>
                      <td className="muted">No credits</td>
                      <td />
                    </tr>,
                  ]
                : a.balances.map((b) => (
                    <tr key={`${a.id}/${b.creditId}`}>
                      <td>{humanize(a.kind)}</td>
                      <td>
                        <button
                          type="button"
                          className="button-link mono"
                          onClick={() => open('bo-credit-history', { creditId: b.creditId })}
                        >
                          {b.serialization}
                        </button>
                      </td>
                      <td className="num">{formatGramsValue(b.amountGrams)}</td>
                    </tr>
                  )),
            )}
          </tbody>
        </table>
      </section>

      <Movements accountIds={o.accounts.map((a) => a.id)} accountName={accountName} />

      <section aria-labelledby="bo-projects">
        <h3 id="bo-projects">Projects</h3>
        {o.projects.length === 0 ? (
          <p className="muted">No projects.</p>
        ) : (
          <ul className="plain-list">
            {o.projects.map((p) => (
              <li key={p.id}>
                <button type="button" className="button-link" onClick={() => openProject(p.id)}>
                  {p.num} · {p.fullName}
                </button>{' '}
                <StatusBadge value={p.status} />
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="bo-installations">
        <h3 id="bo-installations">Installations</h3>
        {o.installations.length === 0 ? (
          <p className="muted">No app is installed for this organization.</p>
        ) : (
          <table className="simple-table" aria-label="Installations">
            <thead>
              <tr>
                <th scope="col">App</th>
                <th scope="col">Status</th>
                <th scope="col">Permissions</th>
              </tr>
            </thead>
            <tbody>
              {o.installations.map((i) => (
                <tr key={i.id}>
                  <td>
                    <button type="button" className="button-link" onClick={() => open('bo-apps', { appId: i.appId })}>
                      {i.appName}
                    </button>
                  </td>
                  <td>{humanize(i.status)}</td>
                  <td>{permissionsWords(i.permissions)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <AuditTrail organizationId={o.id} />

      {editing && <EditOrganizationDialog organization={o} onClose={() => setEditing(false)} />}
      {verifying && (
        <VerifyDialog organization={{ id: o.id, name: o.fullName, verified: o.isVerified }} onClose={() => setVerifying(false)} />
      )}
    </div>
  );
}
