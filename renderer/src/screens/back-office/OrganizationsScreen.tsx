// Back office: Organizations. Every organization of the registry (verified or not, public or not),
// searched and filtered; an organization's page (OrganizationPage.tsx); creating one after a review
// of what will be sent. Reads are the operator list's pages (the pages the back-office sync keeps,
// so the list stays browsable offline). The list's state is useOrganizationList, its parts are in
// organization-list/.
import { useState } from 'react';
import { formatCount, formatDate } from '@renderer/lib/format';
import { describeError } from '@renderer/lib/desk';
import { useNavigation } from '@renderer/stores/navigation';
import { EmptyState, ErrorMessage, Loading } from '@renderer/components/feedback';
import { GatedButton } from '@renderer/components/backOffice/RoleGate';
import { BackOfficePage } from './BackOfficePage';
import { CreateOrganizationDialog } from './CreateOrganizationDialog';
import { OpenOrganization } from './OpenOrganization';
import { OrganizationFilters } from './organization-list/OrganizationFilters';
import { OrganizationsTable } from './organization-list/OrganizationsTable';
import { useOrganizationList } from './organization-list/useOrganizationList';

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
  const list = useOrganizationList();
  const { data, error, loading, reload, rows } = list;
  if (loading && !data) return <Loading label="Loading organizations…" />;
  if (error && !data) return <ErrorMessage error={describeError(error)} onRetry={reload} />;
  const all = data?.organizations.length ?? 0;
  return (
    <>
      <OrganizationFilters list={list} />
      <p className="screen-subtitle" aria-live="polite">
        {rows.length === all ? `${formatCount(all)} organizations` : `${formatCount(rows.length)} of ${formatCount(all)} organizations`}
        {data?.source === 'cache' && ` · offline: as of ${formatDate(data.fetchedAt)}`}
      </p>
      {rows.length === 0 ? (
        <EmptyState title="No organization matches">Change the search or the filters.</EmptyState>
      ) : (
        <OrganizationsTable rows={rows} />
      )}
    </>
  );
}
