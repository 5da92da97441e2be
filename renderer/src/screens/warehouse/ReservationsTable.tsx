// The warehouse's reservations, newest first: each with its state, a live countdown while active,
// and finish, cancel (confirmed in the row) or a link to the retirement it made.
import { useEffect, useRef, useState } from 'react';
import type { Reservation } from '@shared/registry/resources';
import type { WarehouseView } from '@shared/desk/api';
import { desk } from '@renderer/lib/desk';
import { useNow } from '@renderer/lib/hooks';
import { formatDateTime, formatTimeOfDay, formatTonnesValue } from '@renderer/lib/format';
import { useNavigation } from '@renderer/stores/navigation';
import { focusSoon } from '@renderer/lib/focus';
import { say } from '@renderer/components/Announcer';
import { StatusBadge } from '@renderer/components/StatusBadge';
import { EmptyState } from '@renderer/components/feedback';
import { useAction } from '@renderer/components/useAction';
import { ActionsColumnHead } from '@renderer/components/ColumnHeads';
import { Countdown } from './Countdown';
import { PHASE_LABELS, registryNow, reservationPhase } from './reservationPhase';

function ReservationRow({
  r,
  view,
  onFinish,
  onChanged,
  isNew,
}: {
  r: Reservation;
  view: WarehouseView;
  onFinish: (r: Reservation) => void;
  onChanged: () => void;
  /** Just made here: scrolled to and marked. */
  isNew: boolean;
}) {
  const now = useNow();
  const phase = reservationPhase(r, registryNow(view.clockOffsetMs, now));
  const [confirming, setConfirming] = useState(false);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const openRetirement = useNavigation((s) => s.openRetirement);
  const rowRef = useRef<HTMLTableRowElement>(null);
  useEffect(() => {
    if (isNew) rowRef.current?.scrollIntoView({ block: 'center' });
  }, [isNew]);
  const cancel = useAction(async () => {
    await desk('warehouse.cancel', { organizationId: view.organizationId, reservationId: r.id });
    say(`Reservation of ${formatTonnesValue(r.amount)} of ${r.serialization} cancelled: the credits went back to the warehouse.`);
    onChanged();
  });
  return (
    <tr
      ref={rowRef}
      className={isNew ? 'row-new' : undefined}
      data-reservation-id={r.id}
      data-phase={phase}
      aria-label={`Reservation of ${formatTonnesValue(r.amount)} of ${r.serialization}`}
    >
      <td>
        {r.project.fullName}
        <span className="cell-secondary mono">{r.serialization}</span>
      </td>
      <td className="numeric">{formatTonnesValue(r.amount)}</td>
      <td>
        {formatDateTime(r.createdAt)}
        <span className="cell-secondary">until {formatTimeOfDay(r.reservedToDate)}</span>
      </td>
      <td>
        <StatusBadge value={phase} label={PHASE_LABELS[phase]} />
      </td>
      <td>
        {phase === 'active' ? (
          <Countdown until={r.reservedToDate} from={r.createdAt} clockOffsetMs={view.clockOffsetMs} />
        ) : (
          <span className="muted">—</span>
        )}
      </td>
      <td className="row-actions">
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
      </td>
    </tr>
  );
}

export function ReservationsTable({
  view,
  onFinish,
  onChanged,
  newId,
}: {
  view: WarehouseView;
  onFinish: (r: Reservation) => void;
  onChanged: () => void;
  newId: string | null;
}) {
  if (view.reservations.length === 0)
    return <EmptyState title="No reservations yet">Reserve credits from the inventory below to transfer or retire them.</EmptyState>;
  const ordered = [...view.reservations].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
  return (
    <div className="table-wrap">
      <table className="simple-table" aria-label="Reservations">
        <thead>
          <tr>
            <th scope="col">Credit</th>
            <th scope="col" className="numeric">
              Amount
            </th>
            <th scope="col">Reserved</th>
            <th scope="col">State</th>
            <th scope="col">Time left</th>
            <ActionsColumnHead />
          </tr>
        </thead>
        <tbody>
          {ordered.map((r) => (
            <ReservationRow key={r.id} r={r} view={view} onFinish={onFinish} onChanged={onChanged} isNew={r.id === newId} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
