// The warehouses of the app's installed organizations through the seed interface: each one read
// whole with its installation's token (its inventory and every page of its reservations), all
// written in one transaction. With the changes feed, installation-feed.ts reads them instead.
import type { Reservation } from '@shared/registry/resources';
import { RegistryClientError } from '@desk/client/errors';
import type { InstallationRef, StepContext, StepOutcome } from '@desk/sync/context';
import type { createWarehouseWriters } from './writers';
import type { createWarehouseQueries } from './queries';
import type { CacheWith } from '@desk/cache/core';

/** The cache as the warehouses' steps use it. */
export type WarehousesContext = StepContext<
  CacheWith<ReturnType<typeof createWarehouseWriters>, ReturnType<typeof createWarehouseQueries>>
>;

const warehouseLevel = (i: InstallationRef) => i.permissions.organization_warehouse;
export const canReadWarehouse = (i: InstallationRef) => warehouseLevel(i) === 'VIEW' || warehouseLevel(i) === 'WRITE';

/** An installation's warehouse calls: with its token, for its organization. */
const warehouseCall = (i: InstallationRef) => ({ params: { id: i.organizationId }, installationId: i.id });
const reservationsPage = (ctx: WarehousesContext, i: InstallationRef, page: number) => ({
  ...warehouseCall(i),
  query: { page, limit: ctx.tuning.pageSize },
});

/** Each warehouse's inventory and first page of reservations, asked ahead of the step (a SeedPrefetch). */
export function askWarehousesAhead(ctx: WarehousesContext): void {
  for (const installation of ctx.installations.filter(canReadWarehouse)) {
    void ctx.client.call('getWarehouseInventory', warehouseCall(installation));
    void ctx.client.call('listReservations', reservationsPage(ctx, installation, 0));
  }
}

export async function syncWarehouses(ctx: WarehousesContext): Promise<StepOutcome> {
  const targets = ctx.installations.filter(canReadWarehouse);
  if (targets.length === 0) {
    ctx.cache.write.replaceWarehouses([]);
    return { status: 'skipped', reason: 'no installation with organization_warehouse' };
  }
  const refused: string[] = [];
  const warehouses: Parameters<typeof ctx.cache.write.replaceWarehouses>[0][number][] = [];
  let done = 0;
  ctx.progress('warehouses', 0, targets.length);
  for (const installation of targets) {
    try {
      const inventory = await ctx.client.call('getWarehouseInventory', warehouseCall(installation));
      const reservations: Reservation[] = [];
      for (let page = 0; ; page++) {
        const answer = await ctx.client.call('listReservations', reservationsPage(ctx, installation, page));
        reservations.push(...answer.reservations);
        if (answer.reservations.length < ctx.tuning.pageSize) break;
      }
      warehouses.push({
        organizationId: installation.organizationId,
        organizationName: installation.organizationName,
        canWrite: warehouseLevel(installation) === 'WRITE',
        credits: inventory.credits,
        reservations,
      });
    } catch (error) {
      // An installation suspended or stripped of the permission: its warehouse is no longer ours to
      // show; the others still sync.
      if (error instanceof RegistryClientError && error.kind === 'http' && (error.status === 401 || error.status === 403)) {
        refused.push(`${installation.organizationName}: ${error.message}`);
      } else throw error;
    }
    ctx.progress('warehouses', ++done, targets.length);
  }
  ctx.cache.write.replaceWarehouses(warehouses);
  return {
    status: 'ok',
    written: warehouses.length,
    deleted: 0,
    ...(refused.length > 0 ? { note: `refused: ${refused.join('; ')}` } : {}),
  };
}
