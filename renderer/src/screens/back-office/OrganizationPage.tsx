// An organization's back-office page: what it is (edited after a review: EditOrganizationDialog.tsx),
// its verification (recorded or withdrawn after a review), its accounts and balances, its ledger
// movements (from the back-office cache, a page at a time: fast for long histories), its projects,
// installations and audit trail, and links to its retirements and warehouse: every link stays
// inside the desk. Each part is a component of its own in organization-page/.
import { useState } from 'react';
import { formatDateTime, humanize } from '@renderer/lib/format';
import { describeError } from '@renderer/lib/desk';
import { useNavigation } from '@renderer/stores/navigation';
import { ErrorMessage, Loading } from '@renderer/components/feedback';
import { StatusBadge } from '@renderer/components/StatusBadge';
import { GatedButton } from '@renderer/components/backOffice/RoleGate';
import { useBackOfficeRead } from '@renderer/components/backOffice/useBackOfficeRead';
import { useRecordTitle } from '@renderer/lib/pageTitle';
import { EditOrganizationDialog } from './EditOrganizationDialog';
import { AccountBalances } from './organization-page/AccountBalances';
import { AuditTrail } from './organization-page/AuditTrail';
import { Installations } from './organization-page/Installations';
import { Movements } from './organization-page/Movements';
import { OrganizationFacts } from './organization-page/OrganizationFacts';
import { OrganizationProjects } from './organization-page/OrganizationProjects';
import { VerifyDialog } from './organization-page/VerifyDialog';

export function OrganizationPage({ organizationId }: { organizationId: string }) {
  const go = useNavigation((s) => s.go);
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
      <OrganizationFacts organization={o} />
      <AccountBalances accounts={o.accounts} />
      <Movements accountIds={o.accounts.map((a) => a.id)} accountName={accountName} />
      <OrganizationProjects projects={o.projects} />
      <Installations installations={o.installations} />
      <AuditTrail organizationId={o.id} />

      {editing && <EditOrganizationDialog organization={o} onClose={() => setEditing(false)} />}
      {verifying && (
        <VerifyDialog organization={{ id: o.id, name: o.fullName, verified: o.isVerified }} onClose={() => setVerifying(false)} />
      )}
    </div>
  );
}
