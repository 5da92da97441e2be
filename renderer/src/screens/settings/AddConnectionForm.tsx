// Adding a remote registry: its address, the app id registered there, and the app's private key.
// Before anything is stored the form shows the registry's log key for review (LogKeyReview): Add
// fetches it, "Confirm and add" pins the key shown (the desk refuses if the registry then serves
// another), and a pasted key obtained out of band that differs stops the add.
// Without an OS keychain the key can go to a passphrase-encrypted file, if the user agrees.
// Optionally an operator account of that registry (its id and key file, picked like the app key)
// for the back office; both keys are kept the same way. Cancel stops an Add still waiting for a key
// file (nothing was sent); once the desk is connecting it cannot be stopped, so Cancel is unavailable
// (and says why) until the desk answers, and a run only ever closes its own form.
import { useId } from 'react';
import { REGISTRY_URL_RULE } from '@shared/desk/api';
import { Field } from '@renderer/components/Field';
import { ErrorMessage } from '@renderer/components/feedback';
import { KeyFileInput } from './KeyFileInput';
import { LogKeyReview } from './LogKeyReview';
import { KeyStorageFields } from './KeyStorageFields';
import { OperatorAccountFields } from './OperatorAccountFields';
import { useAddConnection } from './useAddConnection';

/** `onDone` gets the name of the connection added, or nothing when the form was cancelled. */
export function AddConnectionForm({ onDone }: { onDone: (added?: string) => void }) {
  const c = useAddConnection(onDone);
  const cancelReasonId = useId();

  return (
    <form
      className="form card"
      aria-label="Add a remote connection"
      onSubmit={(e) => {
        e.preventDefault();
        if (!c.add.busy) void c.add.run();
      }}
    >
      <h3>Add a remote registry</h3>
      <Field label="Connection name">
        <input value={c.name} onChange={(e) => c.setName(e.target.value)} required autoFocus />
      </Field>
      <Field label="Registry address" hint={`For example https://registry.example.org. ${REGISTRY_URL_RULE}.`}>
        <input type="url" value={c.baseUrl} onChange={(e) => c.setBaseUrl(e.target.value)} required />
      </Field>
      <Field label="App id" hint="The id the registry gave this app when it was registered.">
        <input className="mono" value={c.appId} onChange={(e) => c.setAppId(e.target.value)} required />
      </Field>
      <KeyFileInput label="Private key file" onKey={(key) => c.pickKey('app', key)} onReading={c.trackRead} />
      <OperatorAccountFields
        operatorId={c.operatorId}
        onOperatorId={c.setOperatorId}
        onKey={(key) => c.pickKey('operator', key)}
        onReading={c.trackRead}
      />
      <KeyStorageFields
        keychainReason={c.keychain?.reason}
        needsFile={c.needsFile}
        passphrase={c.passphrase}
        onPassphrase={c.setPassphrase}
        confirmed={c.confirmed}
        onConfirmed={c.setConfirmed}
      />
      {c.reviewed && <LogKeyReview served={c.reviewed.logKey} pasted={c.pastedKey} onPasted={c.setPastedKey} />}
      <ErrorMessage error={c.add.error ? `The connection was not added: ${c.add.error}` : null} />
      <div className="actions">
        <button
          type="button"
          className="button"
          aria-disabled={c.connecting || undefined}
          aria-describedby={c.connecting ? cancelReasonId : undefined}
          onClick={() => {
            if (!c.connecting) onDone();
          }}
        >
          Cancel
        </button>
        {/* aria-disabled, not disabled: pressed, it keeps focus while it connects. */}
        <button type="submit" className="button button-primary" aria-disabled={c.add.busy}>
          {c.waitingForKeys ? 'Reading the key file…' : c.add.busy ? 'Connecting…' : c.reviewed ? 'Confirm and add' : 'Add connection'}
        </button>
      </div>
      {c.connecting && (
        <p id={cancelReasonId} className="muted">
          The desk is adding this connection and cannot stop half-way: Cancel is possible again once it has finished.
        </p>
      )}
    </form>
  );
}
