// Reservation safety on every screen: a notice when an active reservation has 2 minutes left and
// when it expires, wherever the user is (and a system notification under Electron). Reads the
// warehouses this app may see, again whenever a reservation changes or a sync finishes; the time
// left counts on the registry's clock (the offset each warehouse answer measures).
import { useEffect, useRef, useState } from 'react';
import type { Reservation } from '@shared/registry/resources';
import { desk, onDeskEvent } from '../lib/desk';
import { useNow } from '../lib/hooks';
import { formatTonnesValue } from '../lib/format';
import { useConnections, warehouseInstallations } from '../stores/connections';
import { useNavigation } from '../stores/navigation';
import { useSync } from '../stores/sync';
import { say } from './Announcer';

export const WARNING_MS = 2 * 60_000;

interface Watched {
  reservation: Reservation;
  clockOffsetMs: number;
}

type Notice = { key: string; reservationId: string; kind: 'soon' | 'expired'; text: string };

function notify(text: string): void {
  // Only the desktop app asks the OS; a browser tab shows the in-page notice alone.
  if (!window.registryDesk || typeof Notification === 'undefined') return;
  if (Notification.permission === 'granted') new Notification('Registry Desk', { body: text });
}

export function ReservationNotices() {
  const connection = useConnections((s) => s.active());
  const organizationIds = warehouseInstallations(connection)
    .filter((i) => i.permissions.organization_warehouse === 'WRITE')
    .map((i) => i.organizationId)
    .join(',');
  const dataVersion = useSync((s) => s.dataVersion);
  const [changes, setChanges] = useState(0);
  const [watched, setWatched] = useState<Watched[]>([]);
  const [dismissed, setDismissed] = useState<ReadonlySet<string>>(new Set());
  const notified = useRef(new Set<string>());
  // Reservations seen active in this session: only their expiry is news (not last week's).
  const seenActive = useRef(new Set<string>());
  const go = useNavigation((s) => s.go);
  const now = useNow();

  useEffect(
    () =>
      onDeskEvent((event) => {
        if (event.type === 'reservation.updated') setChanges((n) => n + 1);
      }),
    [],
  );
  useEffect(() => {
    let current = true;
    const ids = organizationIds ? organizationIds.split(',') : [];
    void Promise.all(
      ids.map((organizationId) =>
        desk('warehouse.get', { organizationId }).then(
          (view) => view.reservations.map((reservation) => ({ reservation, clockOffsetMs: view.clockOffsetMs })),
          () => [] as Watched[],
        ),
      ),
    ).then((lists) => {
      if (!current) return;
      const all = lists.flat();
      for (const w of all) if (w.reservation.state === 'pending' && !w.reservation.isComplete) seenActive.current.add(w.reservation.id);
      setWatched(
        all.filter(
          (w) =>
            !w.reservation.isComplete &&
            (w.reservation.state === 'pending' || (w.reservation.state === 'expired' && seenActive.current.has(w.reservation.id))),
        ),
      );
    });
    return () => {
      current = false;
    };
  }, [organizationIds, dataVersion, changes]);

  const notices: Notice[] = [];
  for (const { reservation: r, clockOffsetMs } of watched) {
    const left = r.state === 'expired' ? 0 : Date.parse(r.reservedToDate) - (now + clockOffsetMs);
    const what = `${formatTonnesValue(r.amount)} of ${r.serialization}`;
    if (left <= 0) {
      notices.push({
        key: `${r.id}:expired`,
        reservationId: r.id,
        kind: 'expired',
        text: `Your reservation of ${what} has expired: the credits went back to the warehouse. Reserve them again to finish.`,
      });
    } else if (left <= WARNING_MS) {
      notices.push({
        key: `${r.id}:soon`,
        reservationId: r.id,
        kind: 'soon',
        text: `Your reservation of ${what} ends in ${Math.ceil(left / 60_000)} minute${left > 60_000 ? 's' : ''}: finish it in Warehouse before then.`,
      });
    }
  }
  const shown = notices.filter((n) => !dismissed.has(n.key));
  // Each notice is said once by the announcer (and again when its minutes left change: 2, then 1).
  const spoken = useRef(new Set<string>());
  useEffect(() => {
    for (const n of shown) {
      if (!spoken.current.has(n.text)) {
        spoken.current.add(n.text);
        say(n.text);
      }
      if (notified.current.has(n.key)) continue;
      notified.current.add(n.key);
      notify(n.text);
    }
  }, [shown]);

  if (shown.length === 0) return null;
  return (
    <div className="reservation-notices" aria-label="Reservation notices">
      {shown.map((n) => (
        // Not a live region of its own: the announcer says it (once, not on every second's render).
        <div key={n.key} className={n.kind === 'expired' ? 'notice notice-bad' : 'notice notice-warn'} data-notice={n.kind}>
          <span>{n.text}</span>{' '}
          <button type="button" className="button button-small" onClick={() => go('warehouse')}>
            Open Warehouse
          </button>{' '}
          <button
            type="button"
            className="button button-small"
            onClick={() => setDismissed((d) => new Set(d).add(n.key))}
            aria-label="Dismiss this notice"
          >
            Dismiss
          </button>
        </div>
      ))}
    </div>
  );
}
