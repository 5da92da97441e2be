// An organization's back-office page: what it is (edited after a review: EditOrganizationDialog.tsx),
// its verification (recorded or withdrawn after a review), its accounts and balances, its ledger movements (from the back-office cache, a page at a
// time: fast for long histories), its projects, installations and audit trail, and links to its
// retirements and warehouse: every link stays inside the desk.
import { useState } from 'react';
import type { AccountMovementsOutput } from '@shared/desk/back-office';
import { countryName, formatCount, formatDateTime, formatGramsValue, humanize } from '@renderer/lib/format';
import { desk, describeError } from '@renderer/lib/desk';
import { useLoader } from '@renderer/lib/hooks';
import { announce } from '@renderer/lib/signals';
import { useBackOffice } from '@renderer/stores/backOffice';
import { useNavigation } from '@renderer/stores/navigation';
import { Dialog } from '@renderer/components/Dialog';
import { Facts } from '@renderer/components/DefinitionList';
import { ErrorMessage, Loading } from '@renderer/components/feedback';
import { StatusBadge } from '@renderer/components/StatusBadge';
import { GatedButton } from '@renderer/components/backOffice/RoleGate';
import { WriteActions } from './DialogActions';
import { useBackOfficeAction } from '@renderer/components/backOffice/useBackOfficeAction';
import { useBackOfficeRead } from '@renderer/components/backOffice/useBackOfficeRead';
import { EditOrganizationDialog } from './EditOrganizationDialog';
import { actorName, useOperatorNames } from './operatorNames';
import { auditActionWords, permissionsWords } from '@renderer/lib/registryWords';
import { useRecordTitle } from '@renderer/lib/pageTitle';

const MOVEMENTS_PAGE = 50;

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

function Movements({ accountIds, accountName }: { accountIds: string[]; accountName: (id: string | null) => string }) {
  const version = useBackOffice((s) => s.version);
  const [shown, setShown] = useState(MOVEMENTS_PAGE);
  const key = accountIds.join(',');
  const { data, error } = useLoader<AccountMovementsOutput | null>(
    async () => {
      if (accountIds.length === 0) return null;
      const page = await desk('backOffice.accountMovements', { accountIds, offset: 0, limit: shown });
      announce('desk:back-office-loaded', { screen: 'bo-organization-movements', rows: page.movements.length });
      return page;
    },
    [key, shown],
    version,
  );
  return (
    <section aria-labelledby="bo-movements">
      <h3 id="bo-movements">Ledger movements</h3>
      <ErrorMessage error={error ? describeError(error) : null} />
      {accountIds.length === 0 && <p className="muted">No accounts, so no movements.</p>}
      {data && data.total === 0 && <p className="muted">No movements synced yet (they follow the back-office sync).</p>}
      {data && data.total > 0 && (
        <>
          <p className="muted">
            {formatCount(data.movements.length)} of {formatCount(data.total)}, newest first
            {data.asOf && ` · synced ${formatDateTime(data.asOf)}`}
          </p>
          <table className="simple-table" aria-label="Ledger movements">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Kind</th>
                <th scope="col">Credit</th>
                <th scope="col">From</th>
                <th scope="col">To</th>
                <th scope="col">Amount</th>
              </tr>
            </thead>
            <tbody>
              {data.movements.map((m) => (
                <tr key={m.id}>
                  <td>{formatDateTime(m.at)}</td>
                  <td>{humanize(m.kind)}</td>
                  <td className="mono">{m.serialization}</td>
                  <td>{accountName(m.fromAccountId)}</td>
                  <td>{accountName(m.toAccountId)}</td>
                  <td className="num">{formatGramsValue(m.amountGrams)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {data.movements.length < data.total && (
            <button type="button" className="button" onClick={() => setShown((n) => n + MOVEMENTS_PAGE * 4)}>
              Show more movements
            </button>
          )}
        </>
      )}
    </section>
  );
}

function AuditTrail({ organizationId }: { organizationId: string }) {
  const open = useNavigation((s) => s.openBackOffice);
  const { data, error } = useBackOfficeRead('operatorSearchAudit', { query: { targetId: organizationId, limit: 20 } });
  const operatorNames = useOperatorNames();
  return (
    <section aria-labelledby="bo-audit-trail">
      <h3 id="bo-audit-trail">Audit trail</h3>
      <ErrorMessage error={error ? describeError(error) : null} />
      {data && data.data.entries.length === 0 && <p className="muted">No operator action names this organization.</p>}
      {data && data.data.entries.length > 0 && (
        <table className="simple-table" aria-label="Audit trail">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Action</th>
              <th scope="col">By</th>
              <th scope="col">Outcome</th>
            </tr>
          </thead>
          <tbody>
            {data.data.entries.map((e) => (
              <tr key={e.id}>
                <td>{formatDateTime(e.at)}</td>
                <td title={e.action}>{auditActionWords(e.action)}</td>
                <td>{actorName(e, operatorNames)}</td>
                <td>{humanize(e.outcome)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <button type="button" className="button-link" onClick={() => open('bo-audit', { targetId: organizationId })}>
        The whole audit log for this organization
      </button>
    </section>
  );
}

export function VerifyDialog({
  organization,
  onClose,
}: {
  organization: { id: string; name: string; verified: boolean };
  onClose: () => void;
}) {
  const action = useBackOfficeAction('operatorSetOrganizationVerified');
  // What the user reviewed: the page behind reloads after the write, the dialog keeps the change it made.
  const [verified] = useState(organization.verified);
  const next = !verified;
  return (
    <Dialog
      title={
        action.state.phase === 'done'
          ? `Verification ${next ? 'recorded' : 'withdrawn'}`
          : `${next ? 'Record' : 'Withdraw'} the verification`
      }
      onClose={onClose}
    >
      <div className="form">
        <p>{action.state.phase === 'done' ? 'What changed:' : 'What changes:'}</p>
        <Facts
          items={[
            ['Organization', organization.name],
            ['Business verification', `${verified ? 'Verified' : 'Not verified'} → ${next ? 'Verified' : 'Not verified'}`],
            [
              'Effect',
              next
                ? 'Its projects can be issued credits, and public projects appear in the public interface.'
                : 'No more issuance for its projects, and its projects leave the public interface.',
            ],
          ]}
        />
        <WriteActions
          action={action}
          onClose={onClose}
          onConfirm={() => void action.run({ params: { organizationId: organization.id }, body: { verified: next } })}
        >
          {next ? 'Record verification' : 'Withdraw verification'}
        </WriteActions>
      </div>
    </Dialog>
  );
}
