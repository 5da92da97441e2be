// Back office: Apps and installations (administrators). Every app with its installations; register
// an app with its RSA public key (PEM), install it for an organization with a level per permission
// (VIEW / WRITE / REQUEST where the permission has them), suspend, resume or remove an installation,
// grant or revoke an app's examiner rights. Each action is one confirmed write with its own key.
import { useState } from 'react';
import type { BackOfficeData } from '@shared/desk/back-office';
import { ActionStatus } from '@renderer/components/backOffice/ActionStatus';
import { GatedButton } from '@renderer/components/backOffice/RoleGate';
import { useBackOfficeAction } from '@renderer/components/backOffice/useBackOfficeAction';
import { useBackOfficeRead } from '@renderer/components/backOffice/useBackOfficeRead';
import { Dialog } from '@renderer/components/Dialog';
import { EmptyState, ErrorMessage, Loading } from '@renderer/components/feedback';
import { ColumnHeadsWithActions } from '@renderer/components/ColumnHeads';
import { StatusBadge } from '@renderer/components/StatusBadge';
import { describeError } from '@renderer/lib/desk';
import { formatDate } from '@renderer/lib/format';
import { useNavigation } from '@renderer/stores/navigation';
import { BackOfficePage } from './BackOfficePage';
import { useOrganizationNames } from './organizationNames';
import { InstallDialog, InstallationStatusDialog } from './InstallationDialogs';
import { RegisterAppDialog } from './RegisterAppDialog';
import { ExaminerDialog } from './ExaminerDialog';
import { permissionsWords } from '@renderer/lib/registryWords';

type App = BackOfficeData<'operatorListApps'>['apps'][number];
type Installation = App['installations'][number];

export function AppsScreen() {
  const apps = useBackOfficeRead('operatorListApps', { query: { limit: 100 } });
  const organizations = useOrganizationNames();
  const focus = useNavigation((s) => s.backOffice);
  const [registering, setRegistering] = useState(false);
  const list = apps.data?.data.apps ?? [];

  return (
    <BackOfficePage
      title="Apps and installations"
      actions={
        <GatedButton can="operatorCreateApp" className="button button-primary" onClick={() => setRegistering(true)}>
          Register app
        </GatedButton>
      }
    >
      <ErrorMessage error={apps.error ? describeError(apps.error) : null} onRetry={apps.reload} />
      {apps.loading && !apps.data ? (
        <Loading label="Loading apps…" />
      ) : list.length === 0 ? (
        <EmptyState title="No apps yet">Register an app with its public key to install it for organizations.</EmptyState>
      ) : (
        <div className="stack">
          {list.map((app) => (
            <AppCard
              key={app.id}
              app={app}
              organizations={organizations}
              highlighted={focus.appId === app.id || app.installations.some((i) => i.id === focus.installationId)}
              focusInstallationId={focus.installationId}
            />
          ))}
        </div>
      )}
      {registering && <RegisterAppDialog onClose={() => setRegistering(false)} />}
    </BackOfficePage>
  );
}

function AppCard({
  app,
  organizations,
  highlighted,
  focusInstallationId,
}: {
  app: App;
  organizations: Map<string, string>;
  highlighted: boolean;
  focusInstallationId: string | undefined;
}) {
  const [changingExaminer, setChangingExaminer] = useState(false);
  const [installing, setInstalling] = useState(false);
  const headingId = `app-${app.id}`;
  return (
    <section className={`card${highlighted ? ' row-current' : ''}`} aria-labelledby={headingId} data-app-id={app.id}>
      <header className="panel-header">
        <div>
          <h2 id={headingId}>{app.name}</h2>
          <p className="muted">
            <span className="mono">{app.nameId}</span> · registered {formatDate(app.createdAt)} · examiner rights:{' '}
            {app.examinerRead ? 'granted' : 'not granted'}
          </p>
        </div>
        <div className="actions">
          <GatedButton can="operatorSetExaminer" onClick={() => setChangingExaminer(true)}>
            {app.examinerRead ? 'Revoke examiner rights' : 'Grant examiner rights'}
          </GatedButton>
          <GatedButton can="operatorInstallApp" className="button button-primary" onClick={() => setInstalling(true)}>
            Install for an organization
          </GatedButton>
        </div>
      </header>
      {changingExaminer && <ExaminerDialog app={app} onClose={() => setChangingExaminer(false)} />}
      {app.installations.length === 0 ? (
        <p className="muted">Not installed for any organization.</p>
      ) : (
        <div className="table-wrap">
          <table className="simple-table" aria-label={`Installations of ${app.name}`}>
            <ColumnHeadsWithActions names={['Organization', 'Status', 'Permissions', 'Installed']} />
            <tbody>
              {app.installations.map((i) => (
                <InstallationRow
                  key={i.id}
                  appName={app.name}
                  installation={i}
                  organizationName={organizations.get(i.organizationId) ?? i.organizationId}
                  current={i.id === focusInstallationId}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {installing && <InstallDialog app={app} organizations={organizations} onClose={() => setInstalling(false)} />}
    </section>
  );
}

function InstallationRow({
  appName,
  installation,
  organizationName,
  current,
}: {
  appName: string;
  installation: Installation;
  organizationName: string;
  current: boolean;
}) {
  const [changingStatus, setChangingStatus] = useState(false);
  const remove = useBackOfficeAction('operatorRemoveInstallation');
  const [confirmRemove, setConfirmRemove] = useState(false);
  const openOrganization = useNavigation((s) => s.openBackOffice);
  const suspended = installation.status === 'suspended';
  const busy = remove.busy ? 'Sending…' : null;
  return (
    <tr className={current ? 'row-current' : undefined} data-installation-id={installation.id}>
      <td>
        <button
          type="button"
          className="button-link"
          onClick={() => openOrganization('bo-organizations', { organizationId: installation.organizationId })}
        >
          {organizationName}
        </button>
      </td>
      <td>
        <StatusBadge value={installation.status} />
      </td>
      <td>{permissionsWords(installation.permissions)}</td>
      <td>{formatDate(installation.createdAt)}</td>
      <td className="row-actions">
        <GatedButton
          can="operatorSetInstallationStatus"
          className="button button-small"
          disabledReason={busy}
          showReason={false}
          aria-label={`${suspended ? 'Resume' : 'Suspend'} the installation for ${organizationName}`}
          onClick={() => setChangingStatus(true)}
        >
          {suspended ? 'Resume' : 'Suspend'}
        </GatedButton>
        <GatedButton
          can="operatorRemoveInstallation"
          className="button button-small button-danger"
          disabledReason={busy}
          showReason={false}
          aria-label={`Remove the installation for ${organizationName}`}
          onClick={() => setConfirmRemove(true)}
        >
          Remove
        </GatedButton>
        {changingStatus && (
          <InstallationStatusDialog
            appName={appName}
            installation={installation}
            organizationName={organizationName}
            onClose={() => setChangingStatus(false)}
          />
        )}
        {remove.state.phase !== 'idle' && <ActionStatus action={remove} />}
        {confirmRemove && (
          <Dialog title={`Remove the installation for ${organizationName}?`} onClose={() => setConfirmRemove(false)}>
            <p>Its access tokens stop working at once. The app can be installed again later, with new permissions.</p>
            <div className="actions">
              <button type="button" className="button" onClick={() => setConfirmRemove(false)}>
                Keep it
              </button>
              <button
                type="button"
                className="button button-danger"
                onClick={() => {
                  setConfirmRemove(false);
                  void remove.run({ params: { installationId: installation.id } });
                }}
              >
                Remove installation
              </button>
            </div>
          </Dialog>
        )}
      </td>
    </tr>
  );
}
