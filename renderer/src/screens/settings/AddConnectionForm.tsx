// Adding a remote registry: its address, the app id registered there, and the app's private key.
// Before anything is stored the form shows the registry's log key for review (LogKeyReview): Add
// fetches it, "Confirm and add" pins the key shown (the desk refuses if the registry then serves
// another), and a pasted key obtained out of band that differs stops the add.
// Without an OS keychain the key can go to a passphrase-encrypted file, if the user agrees.
// Optionally an operator account of that registry (its id and key file, picked like the app key)
// for the back office; both keys are kept the same way. Cancel stops an Add still waiting for a key
// file (nothing was sent); once the desk is connecting it cannot be stopped, so Cancel is unavailable
// (and says why) until the desk answers, and a run only ever closes its own form.
import { useId, useRef, useState } from 'react';
import { isAllowedRegistryUrl, REGISTRY_URL_RULE, type LogKey, type PickedKey } from '@shared/desk/api';
import { desk } from '@renderer/lib/desk';
import { useConnections } from '@renderer/stores/connections';
import { Field } from '@renderer/components/Field';
import { ErrorMessage } from '@renderer/components/feedback';
import { useAction } from '@renderer/components/useAction';
import { useMounted } from '@renderer/components/useMounted';
import { KeyFileInput } from './KeyFileInput';
import { keyMismatch, LogKeyReview } from './LogKeyReview';

/** `onDone` gets the name of the connection added, or nothing when the form was cancelled. */
export function AddConnectionForm({ onDone }: { onDone: (added?: string) => void }) {
  const keychain = useConnections((s) => s.list?.keychain);
  const [name, setName] = useState('');
  const [baseUrl, setBaseUrl] = useState('https://');
  const [appId, setAppId] = useState('');
  const [operatorId, setOperatorId] = useState('');
  // The handles of the key files read so far (only Add uses them), and the reads still under way:
  // Add pressed during a read waits for it, then checks the keys as they are now (pressed early,
  // it once found no operator key because a read had not ended).
  const keys = useRef<{ app: PickedKey | null; operator: PickedKey | null }>({ app: null, operator: null });
  const reads = useRef(new Set<Promise<void>>());
  const [waitingForKeys, setWaitingForKeys] = useState(false);
  const trackRead = (read: Promise<void>) => {
    reads.current.add(read);
    void read.finally(() => reads.current.delete(read));
  };
  const [passphrase, setPassphrase] = useState('');
  const [confirmed, setConfirmed] = useState(false);
  // The log key fetched for review, for the address it was fetched from (another address: review again).
  const [review, setReview] = useState<{ baseUrl: string; logKey: LogKey | null } | null>(null);
  const [pastedKey, setPastedKey] = useState('');
  const reviewed = review !== null && review.baseUrl === baseUrl.trim() ? review : null;
  const needsFile = keychain ? !keychain.available : false;
  const mounted = useMounted();
  const cancelReasonId = useId();

  const add = useAction(async () => {
    if (reads.current.size > 0) {
      setWaitingForKeys(true);
      try {
        while (reads.current.size > 0) await Promise.all([...reads.current]);
      } finally {
        setWaitingForKeys(false);
      }
      // Cancelled while the key files were read: nothing was sent, nothing is.
      if (!mounted.current) return;
    }
    const { app: key, operator: operatorKey } = keys.current;
    if (!isAllowedRegistryUrl(baseUrl.trim())) throw new Error(REGISTRY_URL_RULE);
    if (!key) throw new Error('Choose the private key file of the app.');
    if (operatorId.trim() !== '' && !operatorKey)
      throw new Error("Choose the operator account's private key file, or leave the operator id empty.");
    if (operatorId.trim() === '' && operatorKey) throw new Error('Enter the operator id that goes with the operator key file.');
    if (needsFile && (!confirmed || passphrase.length < 8))
      throw new Error('Without a keychain, the key is stored encrypted with a passphrase of at least 8 characters: enter one and confirm.');
    if (!reviewed) {
      // first the registry's log key, for the person to review; nothing is stored yet
      const { logKey } = await desk('connections.logKey', { baseUrl: baseUrl.trim() });
      if (mounted.current) setReview({ baseUrl: baseUrl.trim(), logKey });
      return;
    }
    if (keyMismatch(pastedKey, reviewed.logKey)) throw new Error('the key you pasted is not the key this registry serves.');
    await desk('connections.addRemote', {
      logKey: reviewed.logKey?.key ?? null,
      name: name.trim(),
      baseUrl: baseUrl.trim(),
      appId: appId.trim(),
      keyHandle: key.handle,
      ...(operatorKey && operatorId.trim() !== '' ? { operator: { id: operatorId.trim(), keyHandle: operatorKey.handle } } : {}),
      ...(needsFile ? { encryptedFileFallback: { passphrase, userConfirmed: true as const } } : {}),
    });
    await useConnections.getState().load();
    if (mounted.current) onDone(name.trim());
  });
  // The desk is adding the connection (a call that cannot be taken back).
  const connecting = add.busy && !waitingForKeys;

  return (
    <form
      className="form card"
      aria-label="Add a remote connection"
      onSubmit={(e) => {
        e.preventDefault();
        if (!add.busy) void add.run();
      }}
    >
      <h3>Add a remote registry</h3>
      <Field label="Connection name">
        <input value={name} onChange={(e) => setName(e.target.value)} required autoFocus />
      </Field>
      <Field label="Registry address" hint={`For example https://registry.example.org. ${REGISTRY_URL_RULE}.`}>
        <input type="url" value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} required />
      </Field>
      <Field label="App id" hint="The id the registry gave this app when it was registered.">
        <input className="mono" value={appId} onChange={(e) => setAppId(e.target.value)} required />
      </Field>
      <KeyFileInput label="Private key file" onKey={(key) => (keys.current.app = key)} onReading={trackRead} />
      <fieldset className="fieldset">
        <legend>Operator account (optional, for the back office)</legend>
        <Field
          label="Operator id"
          hint="The id of your operator account on this registry; its role decides what the back office lets you do."
        >
          <input className="mono" value={operatorId} onChange={(e) => setOperatorId(e.target.value)} />
        </Field>
        <KeyFileInput
          label="Operator key file"
          hint="The operator account's RSA private key, a .pem file starting with -----BEGIN PRIVATE KEY-----; for a demo registry, its demo-credentials.json (the key of the operator id above)."
          onKey={(key) => (keys.current.operator = key)}
          onReading={trackRead}
        />
      </fieldset>
      {/* Where the key will be kept when a keychain is available (keytar or Electron's safeStorage). */}
      {!needsFile && keychain?.reason && <p className="hint">{keychain.reason}</p>}
      {needsFile && (
        <>
          <p className="notice">
            {/* The reason is already the sentence naming the missing keychain and its cause: said once. */}
            {keychain?.reason?.trim() || 'No system keychain is available.'} The key can instead be stored in a file encrypted with a
            passphrase you enter each time the desk starts.
          </p>
          <Field label="Passphrase for the key file">
            <input type="password" autoComplete="new-password" value={passphrase} onChange={(e) => setPassphrase(e.target.value)} />
          </Field>
          <label className="checkbox">
            <input type="checkbox" checked={confirmed} onChange={(e) => setConfirmed(e.target.checked)} />
            Store the key in a passphrase-encrypted file
          </label>
        </>
      )}
      {reviewed && <LogKeyReview served={reviewed.logKey} pasted={pastedKey} onPasted={setPastedKey} />}
      <ErrorMessage error={add.error ? `The connection was not added: ${add.error}` : null} />
      <div className="actions">
        <button
          type="button"
          className="button"
          aria-disabled={connecting || undefined}
          aria-describedby={connecting ? cancelReasonId : undefined}
          onClick={() => {
            if (!connecting) onDone();
          }}
        >
          Cancel
        </button>
        {/* aria-disabled, not disabled: pressed, it keeps focus while it connects. */}
        <button type="submit" className="button button-primary" aria-disabled={add.busy}>
          {waitingForKeys ? 'Reading the key file…' : add.busy ? 'Connecting…' : reviewed ? 'Confirm and add' : 'Add connection'}
        </button>
      </div>
      {connecting && (
        <p id={cancelReasonId} className="muted">
          The desk is adding this connection and cannot stop half-way: Cancel is possible again once it has finished.
        </p>
      )}
    </form>
  );
}
