// What can be done with one reservation, in its row: finish or cancel it while it is active (cancelling
// asks first, in the row), or open the retirement it made once processed.
import { useRef, useState, type RefObject } from 'react';
import type { Reservation } from '@shared/registry/resources';
import type { WarehouseView } from '@shared/desk/api';
import { desk } from '@renderer/lib/desk';
import { formatTonnesValue } from '@renderer/lib/format';
import { useNavigation } from '@renderer/stores/navigation';
import { focusSoon } from '@renderer/lib/focus';
import { say } from '@renderer/components/Announcer';
import { useAction } from '@renderer/components/useAction';
import type { ReservationPhase } from './reservationPhase';

export function ReservationActions({
  r,
  view,
  phase,
  onFinish,
  onChanged,
  rowRef,
}: {
  r: Reservation;
  view: WarehouseView;
  phase: ReservationPhase;
  onFinish: (r: Reservation) => void;
  onChanged: () => void;
  /** The row, where focus goes back when the cancel button is gone. */
  rowRef: RefObject<HTMLTableRowElement | null>;
}) {
  const [confirming, setConfirming] = useState(false);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const openRetirement = useNavigation((s) => s.openRetirement);
  const cancel = useAction(async () => {
    await desk('warehouse.cancel', { organizationId: view.organizationId, reservationId: r.id });
    say(`Reservation of ${formatTonnesValue(r.amount)} of ${r.serialization} cancelled: the credits went back to the warehouse.`);
    onChanged();
  });
  return (
    <>
      {phase === 'active' && view.canWrite && !confirming && (
        <>
          <button type="button" className="button button-small button-primary" onClick={() => onFinish(r)} disabled={view.offline}>
            Finish…
          </button>
          <button
            ref={cancelButton}
            type="button"
            className="button button-small"
            onClick={() => setConfirming(true)}
            disabled={view.offline}
          >
            Cancel reservation
          </button>
        </>
      )}
      {phase === 'active' && view.canWrite && confirming && (
        <span className="inline-confirm" role="group" aria-label="Confirm cancelling">
          <span>Cancel it? The credits go back to the warehouse.</span>
          {/* Focus moves here from "Cancel reservation"; aria-disabled keeps it here while cancelling (then on the row). */}
          <button
            type="button"
            className="button button-small button-danger"
            autoFocus
            onClick={() => {
              if (!cancel.busy && !view.offline) void cancel.run().finally(() => setConfirming(false));
            }}
            aria-disabled={cancel.busy || view.offline}
          >
            {cancel.busy ? 'Cancelling…' : 'Yes, cancel it'}
          </button>
          <button
            type="button"
            className="button button-small"
            onClick={() => {
              setConfirming(false);
              focusSoon(() => cancelButton.current ?? rowRef.current);
            }}
            disabled={cancel.busy}
          >
            Keep it
          </button>
        </span>
      )}
      {phase === 'processed' && r.retirementId && (
        <button type="button" className="button button-small" onClick={() => openRetirement(r.retirementId)}>
          View the retirement
        </button>
      )}
      {phase === 'processed' && !r.retirementId && <span className="muted">Transferred</span>}
      {cancel.error && (
        <span className="inline-error" role="alert">
          Not cancelled: {cancel.error}
        </span>
      )}
    </>
  );
}
