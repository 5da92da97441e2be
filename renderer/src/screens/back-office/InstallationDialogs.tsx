// The writes on an app's installations, each reviewed before it is sent like every other
// back-office write: installing the app for an organization (the form, then a review of the
// organization and the permission levels), and suspending or resuming an installation (what it
// does to the app's access, then the confirming button).
import { useMemo, useState } from 'react';
import type { BackOfficeData } from '@shared/desk/back-office';
import { PERMISSION_LEVELS, type PermissionKey } from '@shared/registry/vocabulary';
import { useBackOfficeAction } from '@renderer/components/backOffice/useBackOfficeAction';
import { Facts } from '@renderer/components/DefinitionList';
import { Dialog } from '@renderer/components/Dialog';
import { Field } from '@renderer/components/Field';
import type { FormProblem } from '@renderer/components/FieldProblems';
import { compareNames, humanize } from '@renderer/lib/format';
import { permissionLevelWords } from '@renderer/lib/registryWords';
import { WriteActions } from './DialogActions';
import { ReviewedWriteDialog, type ReviewCheck } from './ReviewedWriteDialog';

type App = BackOfficeData<'operatorListApps'>['apps'][number];
type Installation = App['installations'][number];

const PERMISSIONS = Object.keys(PERMISSION_LEVELS) as PermissionKey[];

interface Install {
  organizationId: string;
  permissions: Record<string, string>;
}

export function InstallDialog({ app, organizations, onClose }: { app: App; organizations: Map<string, string>; onClose: () => void }) {
  const action = useBackOfficeAction('operatorInstallApp');
  const installed = useMemo(() => new Set(app.installations.map((i) => i.organizationId)), [app.installations]);
  const choices = useMemo(
    () => [...organizations].filter(([id]) => !installed.has(id)).sort((a, b) => compareNames(a[1], b[1])),
    [organizations, installed],
  );
  const [organizationId, setOrganizationId] = useState('');
  const [levels, setLevels] = useState<Partial<Record<PermissionKey, string>>>({});
  const permissions = Object.fromEntries(Object.entries(levels).filter(([, level]) => level)) as Record<string, string>;
  return (
    <ReviewedWriteDialog
      title={`Install ${app.name}`}
      reviewTitle={`Review the installation of ${app.name}`}
      doneTitle={`${app.name} installed`}
      action={action}
      onClose={onClose}
      check={(): ReviewCheck<Install> => {
        const problems: FormProblem[] = [];
        if (!organizationId) problems.push({ field: 'organizationId', message: 'Choose the organization.' });
        // about the permissions together, so under the form
        if (Object.keys(permissions).length === 0) problems.push('Give at least one permission a level.');
        return problems.length > 0 ? { ok: false, problems } : { ok: true, reviewed: { organizationId, permissions } };
      }}
      fields={
        <>
          <Field label="Organization" name="organizationId">
            <select value={organizationId} onChange={(e) => setOrganizationId(e.target.value)}>
              <option value="">Choose…</option>
              {choices.map(([id, name]) => (
                <option key={id} value={id}>
                  {name}
                </option>
              ))}
            </select>
          </Field>
          <fieldset className="form">
            <legend>Permissions</legend>
            {PERMISSIONS.map((key) => (
              <Field key={key} label={humanize(key)}>
                <select value={levels[key] ?? ''} onChange={(e) => setLevels((l) => ({ ...l, [key]: e.target.value }))}>
                  <option value="">None</option>
                  {PERMISSION_LEVELS[key].map((level) => (
                    <option key={level} value={level}>
                      {permissionLevelWords(level)}
                    </option>
                  ))}
                </select>
              </Field>
            ))}
          </fieldset>
        </>
      }
      review={(reviewed, done) => (
        <>
          <p>
            The registry {done ? 'installed' : 'will install'} {app.name} for this organization, active at once, with these permissions:
          </p>
          <Facts
            items={[
              ['Organization', organizations.get(reviewed.organizationId) ?? reviewed.organizationId],
              ...Object.entries(reviewed.permissions).map(([key, level]): [string, string] => [humanize(key), permissionLevelWords(level)]),
            ]}
          />
        </>
      )}
      confirm="Install"
      request={(reviewed) => ({ body: { appId: app.id, ...reviewed } })}
    />
  );
}

export function InstallationStatusDialog({
  appName,
  installation,
  organizationName,
  onClose,
}: {
  appName: string;
  installation: Installation;
  organizationName: string;
  onClose: () => void;
}) {
  const action = useBackOfficeAction('operatorSetInstallationStatus');
  // The change as the dialog opened: the list re-read after it shows the new status.
  const [resume] = useState(installation.status === 'suspended');
  const verb = resume ? 'Resume' : 'Suspend';
  return (
    <Dialog
      title={
        action.state.phase === 'done'
          ? `Installation for ${organizationName} ${resume ? 'resumed' : 'suspended'}`
          : `${verb} the installation for ${organizationName}?`
      }
      onClose={onClose}
    >
      <div className="form">
        <Facts
          items={[
            ['App', appName],
            ['Organization', organizationName],
            ['Status', resume ? 'Suspended → Active' : 'Active → Suspended'],
            [
              'Effect',
              resume
                ? 'The app can get access tokens for this organization again, with the same permissions.'
                : 'The app’s access tokens for this organization stop working at once, until it is resumed.',
            ],
          ]}
        />
        <WriteActions
          action={action}
          onClose={onClose}
          onConfirm={() =>
            void action.run({ params: { installationId: installation.id }, body: { status: resume ? 'active' : 'suspended' } })
          }
        >
          {`${verb} installation`}
        </WriteActions>
      </div>
    </Dialog>
  );
}
