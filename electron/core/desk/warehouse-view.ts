// The warehouse of one organization as the desk shows it: read live from the registry, since
// reservations count down in minutes and a cached view would mislead; when the registry cannot be
// reached, the last synced copy, marked offline.
import type { WarehouseView } from '@shared/desk/api';
import type { Clock } from '../platform/clock';
import type { ConnectionRuntime } from './connection-runtime';
import { DeskFailure } from './errors';
import { isUnreachable, withRegistry, type OnlineTracker } from './registry-calls';
import { installationFor } from './writes';

export async function warehouseView(
  runtime: ConnectionRuntime,
  tracker: OnlineTracker,
  clock: Clock,
  organizationId: string,
): Promise<WarehouseView> {
  const installation = installationFor(runtime, organizationId);
  const clockOffsetMs = () => runtime.client.clockOffsetMs() ?? 0;
  try {
    const inventory = await withRegistry(tracker, 'Reading the warehouse', () =>
      runtime.client.call('getWarehouseInventory', { params: { id: organizationId }, installationId: installation.id }),
    );
    const reservations = [];
    for (let page = 0; page < 1000; page++) {
      const answer = await withRegistry(tracker, 'Reading the reservations', () =>
        runtime.client.call('listReservations', {
          params: { id: organizationId },
          query: { limit: 100, page },
          installationId: installation.id,
        }),
      );
      reservations.push(...answer.reservations);
      if (answer.reservations.length < 100 || answer.pagination.nextPage === null) break;
    }
    return {
      organizationId,
      organizationName: installation.organizationName,
      canWrite: installation.permissions.organization_warehouse === 'WRITE',
      credits: inventory.credits,
      reservations,
      clockOffsetMs: clockOffsetMs(),
      asOf: new Date(clock.now()).toISOString(),
      offline: false,
    };
  } catch (error) {
    if (!isUnreachable(error)) throw error;
    const cached = runtime.cache.getWarehouse(organizationId);
    if (!cached)
      throw new DeskFailure(
        'offline',
        `The warehouse of ${installation.organizationName} has not been synced yet and the registry cannot be reached`,
      );
    return { ...cached, clockOffsetMs: clockOffsetMs(), offline: true };
  }
}
