// The warehouse of an organization that installed this app: what it holds, reserving credits,
// and every reservation with a live countdown, finish and cancel.
import { useState } from 'react';
import type { Reservation, WarehouseInventoryCredit } from '@shared/registry/resources';
import type { WarehouseView } from '@shared/desk/api';
import { describeError } from '@renderer/lib/desk';
import { formatTonnesValue } from '@renderer/lib/format';
import { say } from '@renderer/components/Announcer';
import { useConnections, warehouseInstallations } from '@renderer/stores/connections';
import { EmptyState, ErrorMessage, Loading } from '@renderer/components/feedback';
import { ReserveDialog } from './ReserveDialog';
import { BulkReserveDialog } from './BulkReserveDialog';
import { WarehouseCredits } from './WarehouseCredits';
import { FinishDialog } from './FinishDialog';
import { ReservationsTable } from './ReservationsTable';
import { useWarehouse } from './useWarehouse';

/** Whether the reservation is still held (the notice of its making is not true once it is over). */
function stillActive(view: WarehouseView, reservationId: string): boolean {
  return view.reservations.some((r) => r.id === reservationId && r.state === 'pending' && !r.isComplete);
}

function OrganizationWarehouse({ organizationId }: { organizationId: string }) {
  const { view, loading, error, reload } = useWarehouse(organizationId);
  const [reserving, setReserving] = useState<WarehouseInventoryCredit | null>(null);
  const [reservingMany, setReservingMany] = useState<{ credits: WarehouseInventoryCredit[]; clearSelection: () => void } | null>(null);
  const [finishing, setFinishing] = useState<Reservation | null>(null);
  const [reserved, setReserved] = useState<{ id: string; text: string } | null>(null);

  if (loading && !view) return <Loading label="Loading the warehouse…" />;
  if (!view) return <ErrorMessage error={describeError(error)} onRetry={reload} />;
  return (
    <>
      <ErrorMessage error={error ? describeError(error) : null} onRetry={reload} />
      {!view.canWrite && (
        <p className="notice">
          This app may only view this warehouse: reserving, finishing and cancelling need the warehouse write permission.
        </p>
      )}
      {view.offline && view.canWrite && (
        <p className="notice">
          The registry cannot be reached: reserving, finishing and cancelling are done by the registry, so they are possible again once it
          is back.
        </p>
      )}
      <section className="card" aria-label="Reservations">
        <h2>Reservations</h2>
        <p className="muted">Newest first. Active reservations can be finished or cancelled until their time runs out.</p>
        {reserved && stillActive(view, reserved.id) && <p className="notice">{reserved.text}</p>}
        <ReservationsTable view={view} onFinish={setFinishing} onChanged={reload} newId={reserved?.id ?? null} />
      </section>
      <section className="card" aria-label="Warehouse inventory">
        <div className="panel-header">
          <h2>Inventory</h2>
          <div className="header-actions">
            <button type="button" className="button button-small" onClick={reload} disabled={loading}>
              {loading ? 'Refreshing…' : 'Refresh'}
            </button>
          </div>
        </div>
        <WarehouseCredits
          view={view}
          onReserve={setReserving}
          onReserveMany={(credits, clearSelection) => setReservingMany({ credits, clearSelection })}
        />
      </section>
      {reserving && (
        <ReserveDialog
          organizationId={organizationId}
          credit={reserving}
          onClose={() => setReserving(null)}
          onReserved={(made) => {
            const text = `Reserved ${formatTonnesValue(made.amount)} of ${made.serialization} for 10 minutes: it is highlighted under Reservations.`;
            setReserved({ id: made.id, text });
            say(text);
            reload();
          }}
        />
      )}
      {reservingMany && (
        <BulkReserveDialog
          organizationId={organizationId}
          credits={reservingMany.credits}
          onClose={() => setReservingMany(null)}
          onReserved={(all) => {
            if (all) reservingMany.clearSelection();
            reload();
          }}
        />
      )}
      {finishing && (
        <FinishDialog
          organizationId={organizationId}
          organizationName={view.organizationName}
          reservation={view.reservations.find((r) => r.id === finishing.id) ?? finishing}
          clockOffsetMs={view.clockOffsetMs}
          onClose={() => {
            setFinishing(null);
            reload();
          }}
          onFinished={reload}
          returnFocus={() => document.querySelector(`tr[data-reservation-id="${CSS.escape(finishing.id)}"]`)}
          onReserveAgain={() => {
            const credit = view.credits.find((c) => c.id === finishing.creditId);
            setFinishing(null);
            if (credit) setReserving(credit);
            reload();
          }}
        />
      )}
    </>
  );
}

export function WarehouseScreen() {
  const connection = useConnections((s) => s.active());
  const loading = useConnections((s) => s.list === null && s.error === null);
  const error = useConnections((s) => s.error);
  const installations = warehouseInstallations(connection);
  const [chosen, setChosen] = useState<string | null>(null);
  const organizationId =
    chosen && installations.some((i) => i.organizationId === chosen) ? chosen : (installations[0]?.organizationId ?? null);
  return (
    <div className="screen">
      <header className="screen-header">
        <div>
          <h1>Warehouse</h1>
          <p className="screen-subtitle">Reserve credits for 10 minutes, then transfer or retire them.</p>
        </div>
        {installations.length > 0 && (
          <label className="inline-field">
            <span>Organization</span>
            <select value={organizationId ?? ''} onChange={(e) => setChosen(e.target.value)}>
              {installations.map((i) => (
                <option key={i.organizationId} value={i.organizationId}>
                  {i.organizationName}
                </option>
              ))}
            </select>
          </label>
        )}
      </header>
      <ErrorMessage error={error} onRetry={() => void useConnections.getState().load()} />
      {loading ? (
        <Loading />
      ) : organizationId ? (
        <OrganizationWarehouse key={organizationId} organizationId={organizationId} />
      ) : (
        <EmptyState title="No warehouse to show">
          No organization has installed this app with access to its warehouse. Installations appear under Connections & settings.
        </EmptyState>
      )}
    </div>
  );
}
