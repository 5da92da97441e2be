// Reads of the cached warehouses: one organization's, as last synced (warehouse-view.ts reads it
// live first and falls back on this when the registry cannot be reached).
import type { Reservation, WarehouseInventoryCredit } from '@shared/registry/resources';
import { isoOrNull, type QueryBase } from '@desk/cache/queries';

export function createWarehouseQueries(base: QueryBase) {
  const { db } = base;

  function getWarehouse(organizationId: string): {
    organizationId: string;
    organizationName: string;
    canWrite: boolean;
    credits: WarehouseInventoryCredit[];
    reservations: Reservation[];
    asOf: string | null;
  } | null {
    const row = db.first(db.q.selectFrom('warehouses').selectAll().where('organization_id', '=', organizationId));
    if (!row) return null;
    return {
      organizationId: row.organization_id,
      organizationName: row.organization_name,
      canWrite: row.can_write === 1,
      credits: JSON.parse(row.credits_json) as WarehouseInventoryCredit[],
      reservations: JSON.parse(row.reservations_json) as Reservation[],
      asOf: isoOrNull(row.fetched_at),
    };
  }

  return { getWarehouse };
}
