// One organization's warehouse as the screen shows it: read from the desk, read again after a sync
// or when a reservation moves on, and marked offline once the desk finds the registry gone.
import { useEffect, useMemo } from 'react';
import { desk, onDeskEvent } from '@renderer/lib/desk';
import { useLoader } from '@renderer/lib/hooks';
import { announce, setPageState } from '@renderer/lib/signals';
import { useSync } from '@renderer/stores/sync';
import { useFreshness } from '@renderer/stores/freshness';

export function useWarehouse(organizationId: string) {
  const dataVersion = useSync((s) => s.dataVersion);
  const warehouse = useLoader(() => desk('warehouse.get', { organizationId }), [organizationId], dataVersion);
  const { reload } = warehouse;
  // A warehouse read before the registry went away says it was online: the desk's own notice that
  // it is offline (the banner's) disables reserving, finishing and cancelling too.
  const registryOffline = useFreshness((s) => s.offline);
  const read = warehouse.data;
  const view = useMemo(() => (read && registryOffline && !read.offline ? { ...read, offline: true } : read), [read, registryOffline]);

  // Another window, the background worker or the registry moved a reservation on: show it.
  useEffect(
    () =>
      onDeskEvent((event) => {
        if (event.type === 'reservation.updated' && event.organizationId === organizationId) reload();
      }),
    [organizationId, reload],
  );
  useEffect(() => {
    if (!read) return;
    setPageState('warehouseVersion', String(Date.now()));
    announce('desk:warehouse-loaded', { organizationId, reservations: read.reservations.length });
  }, [read, organizationId]);

  return { view, loading: warehouse.loading, error: warehouse.error, reload };
}
