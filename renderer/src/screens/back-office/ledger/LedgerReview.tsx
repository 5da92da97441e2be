// The review step of every ledger write (issuance, deposit, withdrawal, transfer, cancellation):
// the registry's dry run of the very body that will be sent (the serializations it creates or
// touches, the buffer share, every balance before → after), then the confirm button. Nothing is
// sent before the user confirms; an irreversible write (a cancellation) also asks the user to type
// the amount. The confirmed write gets its own idempotency key and ends on "Done", "Refused: …" or
// "Not sure: checking…" (then the settled answer).
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import type { BackOfficeData } from '@shared/desk/back-office';
import { previewRequestOf, type PreviewedWrite } from '@shared/registry/operator-previews';
import { ActionStatus } from '@renderer/components/backOffice/ActionStatus';
import { GatedButton } from '@renderer/components/backOffice/RoleGate';
import { useBackOfficeAction } from '@renderer/components/backOffice/useBackOfficeAction';
import { useBackOfficeRead } from '@renderer/components/backOffice/useBackOfficeRead';
import { Loading } from '@renderer/components/feedback';
import { Field } from '@renderer/components/Field';
import { parseTonnes } from '@renderer/lib/decimal';
import { formatPercent } from '@renderer/lib/format';
import { focusSoon } from '@renderer/lib/focus';
import { useNavigation } from '@renderer/stores/navigation';
import { AccountName, tonnesOf } from './accounts';
import { fieldRefusalOf, PreviewRefusal } from './PreviewRefusal';
import './ledger.css';

type Preview = BackOfficeData<'operatorPreview'>;

export function PreviewDetails({ preview }: { preview: Preview }) {
  const open = useNavigation((s) => s.openBackOffice);
  return (
    <div className="ledger-preview" data-testid="ledger-preview">
      <h3>Serializations</h3>
      <ul className="plain-list">
        {preview.credits.map((c) => (
          <li key={c.creditId}>
            <button type="button" className="button-link mono" onClick={() => open('bo-credit-history', { creditId: c.creditId })}>
              {c.serialization}
            </button>{' '}
            {c.isNew ? <strong>(new: created by this issuance)</strong> : <span className="muted">(existing)</span>}
          </li>
        ))}
      </ul>
      {preview.operation === 'issuance' && (
        <p data-testid="buffer-share">
          Buffer share: <strong>{tonnesOf(preview.toBufferGrams)}</strong> to the buffer account
          {preview.bufferBasisPoints !== null && <> ({formatPercent(preview.bufferBasisPoints / 100)})</>},{' '}
          {tonnesOf(preview.amountGrams - preview.toBufferGrams)} to the receiving inventory.
        </p>
      )}
      <h3>Balances</h3>
      <table className="simple-table" aria-label="Balances before and after">
        <thead>
          <tr>
            <th scope="col">Account</th>
            <th scope="col">Serialization</th>
            <th scope="col" className="numeric">
              Before
            </th>
            <th scope="col" className="numeric">
              After
            </th>
          </tr>
        </thead>
        <tbody>
          {preview.balances.map((b) => (
            <tr key={`${b.account.kind}:${b.account.organizationId ?? b.account.walletAddress ?? ''}:${b.creditId}`}>
              <td>
                <AccountName account={b.account} />
                {b.account.id === null && <span className="muted"> (opened by this write)</span>}
              </td>
              <td className="mono">{b.serialization}</td>
              <td className="numeric">{tonnesOf(b.beforeGrams)}</td>
              <td className="numeric">
                <strong>{tonnesOf(b.afterGrams)}</strong>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function LedgerReview<E extends PreviewedWrite>({
  write,
  body,
  title,
  doneTitle,
  confirmLabel,
  irreversible = false,
  onBack,
  onDone,
  onRefused,
}: {
  write: E;
  body: Record<string, unknown>;
  /** The heading while reviewing, a sentence: "Review the issuance of 5 t to …". */
  title: ReactNode;
  /** The heading once made: what was done ("Issued 5 t to …"), no longer the question. */
  doneTitle: ReactNode;
  confirmLabel: string;
  /** The user types the amount before the confirm button acts (cancellations). */
  irreversible?: boolean;
  /** Back to the form; `made`: after the write was done ("New"), so the form starts a new one. */
  onBack: (made: boolean) => void;
  onDone?: (data: BackOfficeData<E>) => void;
  /** The review was refused about one field: the form shows it there once the user goes back. */
  onRefused?: (refusal: { field: string; text: string } | null) => void;
}) {
  const request = previewRequestOf(write, body);
  // The dry run is asked once per body reviewed (each ask is an audit entry in the registry), not
  // again when this write, or a sync after it, bumps the back office's version: it was asked two or
  // three more times after every transfer, for nothing (once sent, the review shows what was confirmed).
  const preview = useBackOfficeRead('operatorPreview', request, { followChanges: false });
  const action = useBackOfficeAction(write);
  const refusal = preview.error ? fieldRefusalOf(preview.error) : null;
  useEffect(() => onRefused?.(refusal), [refusal?.field, refusal?.text]); // eslint-disable-line react-hooks/exhaustive-deps
  const [typed, setTyped] = useState('');
  const headingId = useId();
  const backButton = useRef<HTMLButtonElement>(null);
  // Keyboard focus (issue 19): the review opens on its heading, so a screen reader starts reading
  // what the registry would do; once done, the confirm button is gone and focus goes to "New".
  useEffect(() => focusSoon(() => document.getElementById(headingId)), [headingId]);
  const done = action.state.phase === 'done';
  useEffect(() => {
    if (done) focusSoon(() => backButton.current);
  }, [done]);
  // Back to the form: focus its first field once it is drawn again.
  const back = () => {
    onBack(done);
    focusSoon(() =>
      document
        .querySelector('main form[aria-label]')
        ?.querySelector('input:not([type="hidden"]):not([disabled]), select:not([disabled]), textarea:not([disabled])'),
    );
  };
  // Once sent, the review keeps showing what was confirmed (the reload after the write would
  // otherwise preview doing it a second time).
  const [confirmed, setConfirmed] = useState<Preview | null>(null);
  const sent = action.state.phase !== 'idle' && action.state.phase !== 'failed';
  const shown = sent ? confirmed : (preview.data?.data ?? null);
  const grams = shown ? BigInt(shown.amountGrams) : null;
  const typedGrams = parseTonnes(typed);
  const typedMatches = grams !== null && typedGrams.ok && typedGrams.grams === grams;
  const reason = action.busy
    ? 'Sending…'
    : action.state.phase === 'unsure'
      ? 'Not sure yet: check again first.'
      : action.state.phase === 'refused'
        ? 'Refused: go back to the form to change it.'
        : shown === null
          ? 'The review is not ready.'
          : irreversible && !typedMatches
            ? `Type the amount (${tonnesOf(Number(grams ?? 0n))}) to confirm.`
            : null;
  return (
    <section className="ledger-review" aria-labelledby={headingId}>
      <h2 id={headingId}>{done ? doneTitle : title}</h2>
      <p className="muted">{sent ? 'What was confirmed:' : 'This is what the registry will do. Nothing has been sent yet.'}</p>
      {preview.loading && !shown && <Loading label="Asking the registry what this would do…" />}
      {!sent && preview.error !== null && preview.error !== undefined && <PreviewRefusal error={preview.error} onRetry={preview.reload} />}
      {shown && <PreviewDetails preview={shown} />}
      {irreversible && shown && !sent && (
        <Field
          label="Type the amount to confirm (tonnes)"
          hint="A cancellation cannot be undone."
          error={typed && !typedMatches ? 'This is not the amount.' : null}
        >
          <input inputMode="decimal" value={typed} onChange={(e) => setTyped(e.target.value)} />
        </Field>
      )}
      <div className="actions">
        <button ref={backButton} type="button" className="button" onClick={back} disabled={action.busy}>
          {action.state.phase === 'done' ? 'New' : 'Back to the form'}
        </button>
        {action.state.phase !== 'done' && (
          <GatedButton
            can={write}
            className="button button-primary"
            disabledReason={reason}
            onClick={() => {
              setConfirmed(shown);
              void action.run({ body }).then((final) => {
                if (final.phase === 'done') onDone?.(final.data);
              });
            }}
          >
            {confirmLabel}
          </GatedButton>
        )}
      </div>
      <ActionStatus action={action} />
    </section>
  );
}
