// Follows a finished reservation until the registry has processed (or failed) the transfer: the
// desk's reservation.updated events move it on, and a slow poll of the reservation covers a
// missed event.
import { useEffect, useState } from 'react';
import { desk, describeError, onDeskEvent } from '@renderer/lib/desk';
import { announce } from '@renderer/lib/signals';
import { useNavigation } from '@renderer/stores/navigation';
import { useRetirementList } from '@renderer/stores/retirements';
import { StatusBadge } from '@renderer/components/StatusBadge';
import { ErrorMessage } from '@renderer/components/feedback';

const POLL_MS = 2000;
const SETTLED = new Set(['processed', 'failed']);

interface Props {
  organizationId: string;
  reservationId: string;
  transactionId: string;
  initialState: string;
  retire: boolean;
  onClose: () => void;
}

export function OutcomeTracker({ organizationId, reservationId, transactionId, initialState, retire, onClose }: Props) {
  const [state, setState] = useState(initialState);
  const [retirementId, setRetirementId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const openRetirement = useNavigation((s) => s.openRetirement);
  const settled = SETTLED.has(state);

  useEffect(() => {
    if (settled) {
      announce('desk:reservation-settled', { reservationId, state, retirementId });
      return;
    }
    let active = true;
    const check = async () => {
      try {
        const r = await desk('warehouse.reservation', { organizationId, reservationId });
        if (!active) return;
        setRetirementId(r.retirementId);
        setState(r.isComplete && r.state !== 'failed' ? 'processed' : r.state);
      } catch (caught) {
        if (active) setError(describeError(caught));
      }
    };
    const stop = onDeskEvent((event) => {
      if (event.type === 'reservation.updated' && event.reservationId === reservationId) void check();
    });
    const timer = window.setInterval(() => void check(), POLL_MS);
    void check();
    return () => {
      active = false;
      stop();
      window.clearInterval(timer);
    };
  }, [settled, organizationId, reservationId, state, retirementId]);

  return (
    <section aria-label="Transfer outcome" className="outcome">
      <p role="status" aria-live="polite" data-step-focus tabIndex={-1}>
        <StatusBadge
          value={settled ? state : 'processing'}
          label={state === 'processed' ? 'Completed' : state === 'failed' ? 'Failed' : 'Processing'}
        />{' '}
        {state === 'processed'
          ? retire
            ? 'The credits were transferred and retired.'
            : 'The credits were transferred.'
          : state === 'failed'
            ? 'The registry could not complete the transfer. Check the reservation below for its state.'
            : 'The registry is processing the transfer…'}
      </p>
      <p className="muted">
        Transaction <span className="mono">{transactionId}</span>
      </p>
      <ErrorMessage error={error ? `The outcome could not be checked: ${error}` : null} />
      <div className="actions">
        {state === 'processed' && retirementId && (
          <button
            type="button"
            className="button"
            onClick={() => {
              onClose();
              useRetirementList.getState().refresh();
              openRetirement(retirementId);
            }}
          >
            View the retirement
          </button>
        )}
        <button type="button" className="button button-primary" onClick={onClose}>
          Close
        </button>
      </div>
    </section>
  );
}
