// Reserving several credits at once: the contract reserves one credit per request, so each selected
// credit gets its own reservation of everything it has available, one after the other. The dialog
// says what will be reserved before anything is sent, then which were reserved and which not (why).
// While it reserves it cannot be closed (Escape, ×, Cancel say why): closed, the run would go on
// unseen and, at its end, close whatever bulk dialog was opened since and clear the new selection.
import { useState } from 'react';
import type { WarehouseInventoryCredit } from '@shared/registry/resources';
import { gramsToTonnes } from '@shared/registry/amounts';
import { totalGrams } from '@shared/desk/warehouse-list';
import { desk, describeError } from '@renderer/lib/desk';
import { formatTonnesValue } from '@renderer/lib/format';
import { Dialog } from '@renderer/components/Dialog';
import { useMounted } from '@renderer/components/useMounted';

const CLOSE_REFUSED = 'The credits are being reserved one after the other; this closes once the last one is done.';

type Outcome = { state: 'reserved' } | { state: 'failed'; message: string };

export function BulkReserveDialog({
  organizationId,
  credits,
  onClose,
  onReserved,
}: {
  organizationId: string;
  credits: WarehouseInventoryCredit[];
  onClose: () => void;
  /** After the run: `all` when every credit was reserved. */
  onReserved: (all: boolean) => void;
}) {
  const [outcomes, setOutcomes] = useState<Record<string, Outcome>>({});
  const [running, setRunning] = useState(false);
  const done = Object.keys(outcomes).length;
  const failed = Object.values(outcomes).filter((o) => o.state === 'failed').length;
  const finished = !running && done === credits.length;
  const mounted = useMounted();

  async function reserveAll() {
    setRunning(true);
    let failures = 0;
    for (const credit of credits) {
      // Taken off the page (another screen, another registry): no more reservations for nobody to see.
      if (!mounted.current) return;
      if (outcomes[credit.id]?.state === 'reserved') continue;
      let outcome: Outcome;
      try {
        await desk('warehouse.reserve', { organizationId, creditId: credit.id, amount: credit.amount });
        outcome = { state: 'reserved' };
      } catch (error) {
        failures++;
        outcome = { state: 'failed', message: describeError(error) };
      }
      setOutcomes((o) => ({ ...o, [credit.id]: outcome }));
    }
    if (!mounted.current) return;
    setRunning(false);
    onReserved(failures === 0);
    if (failures === 0) onClose();
  }

  const total = formatTonnesValue(gramsToTonnes(totalGrams(credits)));
  return (
    <Dialog title={`Reserve ${credits.length} credits`} onClose={onClose} wide closeRefused={running ? CLOSE_REFUSED : null}>
      <p>
        Each credit is reserved for 10 minutes with everything it has available: {credits.length} reservations, {total} in all.
      </p>
      <div className="table-wrap">
        <table className="simple-table" aria-label="Credits to reserve">
          <thead>
            <tr>
              <th scope="col">Credit</th>
              <th scope="col" className="numeric">
                Amount
              </th>
              <th scope="col">Result</th>
            </tr>
          </thead>
          <tbody>
            {credits.map((c) => {
              const outcome = outcomes[c.id];
              return (
                <tr key={c.id}>
                  <td>
                    {c.project.fullName}
                    <span className="cell-secondary mono">{c.serialization}</span>
                  </td>
                  <td className="numeric">{formatTonnesValue(c.amount)}</td>
                  <td>
                    {outcome === undefined ? (
                      <span className="muted">{running ? 'Waiting…' : '—'}</span>
                    ) : outcome.state === 'reserved' ? (
                      'Reserved'
                    ) : (
                      <span className="inline-error">Not reserved: {outcome.message}</span>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {finished && failed > 0 && (
        <p className="inline-error" role="alert">
          {failed} of {credits.length} credits could not be reserved; the others are reserved.
        </p>
      )}
      <div className="actions">
        {/* aria-disabled, not disabled, while it runs: pressed, they keep focus (the reason is said under them). */}
        <button
          type="button"
          className="button"
          aria-disabled={running || undefined}
          title={running ? CLOSE_REFUSED : undefined}
          onClick={() => {
            if (!running) onClose();
          }}
        >
          {finished ? 'Close' : 'Cancel'}
        </button>
        {!(finished && failed === 0) && (
          <button
            type="button"
            className="button button-primary"
            aria-disabled={running || undefined}
            onClick={() => {
              if (!running) void reserveAll();
            }}
          >
            {running
              ? `Reserving ${Math.min(done + 1, credits.length)} of ${credits.length}…`
              : failed > 0
                ? 'Try the others again'
                : `Reserve ${credits.length} credits`}
          </button>
        )}
      </div>
    </Dialog>
  );
}
