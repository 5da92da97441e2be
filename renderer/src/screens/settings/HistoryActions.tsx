// What a person can do about the active connection's history (docs/desk.md, "History verified"):
// save the evidence of failed checks as one JSON file, and, after a failure, verify the registry
// from scratch: a reviewed action that says plainly that it accepts the registry's history as it is
// now, shows the key it will pin (with a field to compare a key obtained out of band), and asks again.
import { useState } from 'react';
import type { ConnectionInfo, HistoryVerification, LogKey } from '@shared/desk/api';
import { desk, saveFile } from '@renderer/lib/desk';
import { announce } from '@renderer/lib/signals';
import { formatCount, formatDateTime } from '@renderer/lib/format';
import { useConnections } from '@renderer/stores/connections';
import { useSync } from '@renderer/stores/sync';
import { ErrorMessage } from '@renderer/components/feedback';
import { useAction } from '@renderer/components/useAction';
import { keyMismatch, LogKeyReview } from './LogKeyReview';

export function HistoryActions({ connection, history }: { connection: ConnectionInfo; history: HistoryVerification | undefined }) {
  const [review, setReview] = useState<{ logKey: LogKey | null } | null>(null);
  const [pasted, setPasted] = useState('');
  const save = useAction(async () => {
    const file = await desk('sync.exportEvidence', {});
    const result = await saveFile(file);
    announce('desk:file-saved', { filename: file.filename, saved: result.saved });
  });
  const open = useAction(async () => {
    setPasted('');
    setReview(await desk('connections.logKey', { baseUrl: connection.baseUrl }));
  });
  const startOver = useAction(async () => {
    if (!review) return;
    if (keyMismatch(pasted, review.logKey)) throw new Error('the key you pasted is not the key this registry serves.');
    await desk('connections.startOver', { id: connection.id, logKey: review.logKey?.key ?? null });
    setReview(null);
    await useConnections.getState().load();
    await useSync.getState().run();
  });
  if (!history) return null;
  const verified =
    history.entries === null
      ? 'no history verified yet'
      : `the ${formatCount(history.entries)} entries verified up to ${formatDateTime(history.upTo)}`;
  return (
    <div className="history-actions">
      <div className="actions">
        {history.evidence > 0 && (
          <button type="button" className="button button-small" onClick={() => void save.run()} disabled={save.busy}>
            {save.busy ? 'Saving…' : 'Save the evidence'}
          </button>
        )}
        {history.state === 'failed' && !review && (
          <button type="button" className="button button-small button-danger" onClick={() => void open.run()} disabled={open.busy}>
            {open.busy ? 'Asking the registry…' : 'Verify this registry from scratch…'}
          </button>
        )}
      </div>
      {review && (
        <section className="card notice" aria-label="Verify this registry from scratch">
          <h4>Verify this registry from scratch?</h4>
          <p>
            The registry's history no longer matches {verified}. Starting over means you{' '}
            <strong>accept the registry's history as it is now</strong>, including whatever it changed: the desk forgets what it verified
            and the data it synced from this registry, keeps the evidence (save it first if you need it elsewhere), and verifies the
            registry's whole log again.
          </p>
          <LogKeyReview served={review.logKey} pinned={connection.logKey ?? null} pasted={pasted} onPasted={setPasted} />
          <ErrorMessage error={startOver.error ? `Nothing was changed: ${startOver.error}` : null} />
          <div className="actions">
            <button type="button" className="button" onClick={() => setReview(null)} disabled={startOver.busy}>
              Cancel
            </button>
            <button
              type="button"
              className="button button-danger"
              onClick={() => void startOver.run()}
              disabled={startOver.busy || keyMismatch(pasted, review.logKey)}
            >
              {startOver.busy ? 'Starting over…' : 'Accept the new history and start over'}
            </button>
          </div>
        </section>
      )}
      <ErrorMessage error={save.error ? `The evidence was not saved: ${save.error}` : (open.error ?? null)} />
    </div>
  );
}
