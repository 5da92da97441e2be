// The warehouse's reservations, newest first: each with its state, a live countdown while active,
// and finish, cancel (confirmed in the row) or a link to the retirement it made.
import { useEffect, useRef } from 'react';
import type { Reservation } from '@shared/registry/resources';
import type { WarehouseView } from '@shared/desk/api';
import { useNow } from '@renderer/lib/hooks';
import { formatDateTime, formatTimeOfDay, formatTonnesValue } from '@renderer/lib/format';
import { StatusBadge } from '@renderer/components/StatusBadge';
import { EmptyState } from '@renderer/components/feedback';
import { ActionsColumnHead } from '@renderer/components/ColumnHeads';
import { Countdown } from './Countdown';
import { ReservationActions } from './ReservationActions';
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
  const rowRef = useRef<HTMLTableRowElement>(null);
  useEffect(() => {
    if (isNew) rowRef.current?.scrollIntoView({ block: 'center' });
  }, [isNew]);
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
        <ReservationActions r={r} view={view} phase={phase} onFinish={onFinish} onChanged={onChanged} rowRef={rowRef} />
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
