// Connections (embedded or remote registries, their keys, installations and permissions), the
// theme, and how often the desk syncs.
import { useState } from 'react';
import { useConnections } from '@renderer/stores/connections';
import { useSettings } from '@renderer/stores/settings';
import { EmptyState, ErrorMessage, Loading } from '@renderer/components/feedback';
import { Field } from '@renderer/components/Field';
import { useAction } from '@renderer/components/useAction';
import { ConnectionCard } from './ConnectionCard';
import { AddConnectionForm } from './AddConnectionForm';
import { focusSoon } from '@renderer/lib/focus';
import { ThemePicker } from './ThemePicker';
import { LaunchAddressCard } from './LaunchAddressCard';
import { DESK_LOCALE, formatDateTime, formatTonnesValue } from '@renderer/lib/format';

/** The moment the locale note writes as its example. */
const EXAMPLE_TIME = '2026-11-28T18:57:00Z';

function SyncInterval() {
  const minutes = useSettings((s) => s.syncIntervalMinutes);
  const [text, setText] = useState<string | null>(null);
  const save = useAction((value: number) => useSettings.getState().save({ syncIntervalMinutes: value }));
  const shown = text ?? (minutes === null ? '' : String(minutes));
  return (
    <form
      className="form-inline"
      onSubmit={(e) => {
        e.preventDefault();
        const value = Number(shown);
        if (!Number.isInteger(value) || value < 1 || value > 1440)
          return save.setError('Enter a whole number of minutes between 1 and 1440.');
        void save.run(value).then(() => setText(null));
      }}
    >
      <Field label="Sync every (minutes)">
        <input inputMode="numeric" value={shown} onChange={(e) => setText(e.target.value)} />
      </Field>
      <button type="submit" className="button" disabled={save.busy}>
        Save
      </button>
      <ErrorMessage error={save.error} />
    </form>
  );
}

export function SettingsScreen() {
  const list = useConnections((s) => s.list);
  const error = useConnections((s) => s.error);
  const [adding, setAdding] = useState(false);
  return (
    <div className="screen">
      <header className="screen-header">
        <div>
          <h1>Connections & settings</h1>
          <p className="screen-subtitle">Which registry the desk works with, and how it looks.</p>
        </div>
      </header>
      <section className="card" aria-label="Appearance">
        <h2>Appearance</h2>
        <ThemePicker />
        <p className="muted" data-testid="language-note">
          Text is in English. Numbers, amounts, dates and times follow your locale, {DESK_LOCALE} (for example {formatTonnesValue(1234.5)},{' '}
          {formatDateTime(EXAMPLE_TIME)}).
        </p>
      </section>
      <section className="card" aria-label="Sync">
        <h2>Sync</h2>
        <SyncInterval />
      </section>
      <section aria-label="Connections" className="stack">
        <div className="panel-header">
          <h2>Connections</h2>
          {!adding && (
            <button type="button" id="add-connection-button" className="button" onClick={() => setAdding(true)}>
              Add remote connection…
            </button>
          )}
        </div>
        <ErrorMessage error={error} onRetry={() => void useConnections.getState().load()} />
        {adding && (
          <AddConnectionForm
            onDone={(added) => {
              setAdding(false);
              // To the connection just added, or back to the button that opened the form.
              focusSoon(() =>
                added
                  ? document.querySelector(`section[aria-label="${CSS.escape(`Connection ${added}`)}"]`)
                  : document.getElementById('add-connection-button'),
              );
            }}
          />
        )}
        {!list && !error && <Loading />}
        {list && list.connections.length === 0 && <EmptyState title="No connection yet">Add a remote registry to start.</EmptyState>}
        {list?.connections.map((c) => (
          <ConnectionCard key={c.id} connection={c} active={c.id === list.activeId} />
        ))}
      </section>
      <LaunchAddressCard />
    </div>
  );
}
