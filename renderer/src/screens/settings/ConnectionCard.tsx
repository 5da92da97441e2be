// One connection: where it points, whether its key is usable, its installations and permissions,
// and what can be done with it.
import { useState, type ReactNode } from 'react';
import type { ConnectionInfo } from '@shared/desk/api';
import { desk } from '@renderer/lib/desk';
import { useLoader } from '@renderer/lib/hooks';
import { focusSoon } from '@renderer/lib/focus';
import { useConnections, whenActive } from '@renderer/stores/connections';
import { useSync } from '@renderer/stores/sync';
import { useBackOffice } from '@renderer/stores/backOffice';
import { Facts } from '@renderer/components/DefinitionList';
import { StatusBadge } from '@renderer/components/StatusBadge';
import { ErrorMessage } from '@renderer/components/feedback';
import { useAction } from '@renderer/components/useAction';
import { KeyFileInput } from './KeyFileInput';
import { historyText } from '@renderer/components/HistoryLine';
import { HistoryActions } from './HistoryActions';
import { humanize } from '@renderer/lib/format';
import { permissionLevelWords } from '@renderer/lib/registryWords';

const KEY_STATUS: Record<ConnectionInfo['keyStatus'], string> = {
  ok: 'Available',
  missing: 'Missing: re-import the key',
  unreadable: 'Cannot be read: re-import the key',
  invalid: 'Not a valid key: re-import the key',
};
const SECRET_STORE: Record<ConnectionInfo['secretStore'], string> = {
  keychain: 'System keychain',
  'encrypted-file': 'Passphrase-encrypted file',
  memory: 'Memory only (this session)',
};

/** As the registry said at the last sync or "Refresh installations": a grant can be revoked at any time. */
const examinerFact = (allowed: boolean) =>
  allowed
    ? 'Allowed: synced with the public projects'
    : 'Not allowed: not synced (an operator grants examiner rights in the back office, under Apps)';

export function ConnectionCard({ connection, active }: { connection: ConnectionInfo; active: boolean }) {
  const [reimporting, setReimporting] = useState(false);
  // the active connection's follows each sync; another's is what it was when it was last active
  const liveHistory = useSync((s) => s.status?.history);
  const historyState = active ? (liveHistory ?? connection.history) : connection.history;
  const history = historyText(historyState);
  const reload = () => useConnections.getState().load();
  const activate = useAction(async () => {
    await desk('connections.activate', { id: connection.id });
    await reload();
    await whenActive(connection.id);
    // "Use this connection" is gone from the card now in use: focus goes to that card, not the page.
    focusSoon(() => document.querySelector(`section[aria-label="${CSS.escape(`Connection ${connection.name}`)}"]`));
    await useSync.getState().run();
  });
  const refresh = useAction(async () => {
    await desk('connections.refreshInstallations', { id: connection.id });
    await reload();
  });
  const remove = useAction(async () => {
    if (!window.confirm(`Remove the connection “${connection.name}”? Its saved key is deleted from this computer.`)) return;
    await desk('connections.remove', { id: connection.id });
    await reload();
  });
  const reimport = useAction(async (keyHandle: string) => {
    await desk('connections.reimportKey', { id: connection.id, keyHandle });
    setReimporting(false);
    await reload();
  });
  const error = activate.error ?? refresh.error ?? remove.error ?? reimport.error;

  return (
    <section className="card connection" aria-label={`Connection ${connection.name}`}>
      <header className="panel-header">
        <h3>
          {connection.name} {active && <StatusBadge value="active" label="In use" />}
        </h3>
        <div className="header-actions">
          {!active && (
            <button
              type="button"
              className="button button-small button-primary"
              onClick={() => {
                if (!activate.busy) void activate.run();
              }}
              aria-disabled={activate.busy || undefined}
            >
              Use this connection
            </button>
          )}
          <button type="button" className="button button-small" onClick={() => void refresh.run()} disabled={refresh.busy}>
            {refresh.busy ? 'Refreshing…' : 'Refresh installations'}
          </button>
          {connection.kind === 'remote' && (
            <>
              <button type="button" className="button button-small" onClick={() => setReimporting((v) => !v)}>
                Re-import key
              </button>
              <button
                type="button"
                className="button button-small button-danger"
                onClick={() => void remove.run()}
                disabled={remove.busy || active}
              >
                Remove
              </button>
            </>
          )}
        </div>
      </header>
      <Facts
        items={[
          ['Kind', connection.kind === 'embedded' ? 'Embedded registry (on this computer)' : 'Remote registry'],
          ['Address', <span className="mono">{connection.baseUrl}</span>],
          ['App id', <span className="mono">{connection.appId}</span>],
          [
            'Private key',
            <StatusBadge value={connection.keyStatus === 'ok' ? 'validated' : 'failed'} label={KEY_STATUS[connection.keyStatus]} />,
          ],
          ['Key stored in', SECRET_STORE[connection.secretStore]],
          ['Internal projects (examiner)', examinerFact(connection.examinerRead)],
          ['Operator account', <OperatorFact connection={connection} />],
          ...(connection.kind === 'embedded' ? [['Demo keys', <DemoKeysFact />] as [string, ReactNode]] : []),
          ...(history ? [['History', history] as [string, string]] : []),
          ...logKeyFacts(connection),
        ]}
      />
      {active && <HistoryActions connection={connection} history={historyState} />}
      {connection.keyMessage && <p className="notice">{connection.keyMessage}</p>}
      {reimporting && <KeyFileInput label="New private key file" onKey={(key) => key && void reimport.run(key.handle)} />}
      <ErrorMessage error={error} />
      <h4>Installations</h4>
      {connection.installations.length === 0 ? (
        <p className="muted">No organization has installed this app yet.</p>
      ) : (
        <table className="simple-table" aria-label={`Installations of ${connection.name}`}>
          <thead>
            <tr>
              <th scope="col">Organization</th>
              <th scope="col">Permissions</th>
            </tr>
          </thead>
          <tbody>
            {connection.installations.map((i) => (
              <tr key={i.id}>
                <td>{i.organizationName}</td>
                <td>
                  {Object.entries(i.permissions).map(([key, level]) => (
                    <span key={key} className="permission" title={level}>
                      {humanize(key)}: <strong>{permissionLevelWords(level).toLowerCase()}</strong>
                    </span>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** The pinned log key's fingerprint (the whole key on hover): what a person compares with one obtained out of band. */
function logKeyFacts(connection: ConnectionInfo): [string, ReactNode][] {
  if (!connection.logKey) return [];
  return [
    [
      'Log key fingerprint',
      <span className="mono" title={connection.logKey.key}>
        {connection.logKey.fingerprint}
      </span>,
    ],
  ];
}

/**
 * Where the embedded demo keeps its keys: the app's and each operator's (PEM text in JSON strings)
 * and each demo wallet's. Nothing in the desk said so; the key inputs take this file as it is.
 */
function DemoKeysFact() {
  const info = useLoader(() => desk('system.info', {}), []);
  const dataDir = info.data?.dataDir;
  const sep = dataDir?.includes('\\') ? '\\' : '/';
  return (
    <span>
      <span className="mono">{dataDir ? [dataDir, 'embedded-registry', 'demo-credentials.json'].join(sep) : 'demo-credentials.json'}</span>
      <span className="muted">
        {' '}
        (the app&rsquo;s, operators&rsquo; and demo wallets&rsquo; keys; the key file inputs and the wallet keystore input take it as it is)
      </span>
    </span>
  );
}

/** The back office's operator account: name and role for the active connection (from the session), else its id. */
function OperatorFact({ connection }: { connection: ConnectionInfo }) {
  const session = useBackOffice((s) => s.session);
  const active = useConnections((s) => s.list?.activeId === connection.id);
  if (connection.operatorId === undefined) return <span className="muted">None (no back office)</span>;
  const operator = active && session?.operator?.id === connection.operatorId ? session.operator : null;
  return operator ? (
    <span>
      {operator.name} · {humanize(operator.role)} <span className="mono muted">{operator.id}</span>
    </span>
  ) : (
    <span className="mono">{connection.operatorId}</span>
  );
}
