// The desk API's warehouse.* methods (shared/desk/api.ts).
import { warehouseView } from '@desk/warehouse-view';
import * as writes from '@desk/writes';
import type { MethodGroup, ServiceContext } from './context';

/** warehouse.*: the live warehouse view, and reservations through the registry. */
export function warehouseMethods(ctx: ServiceContext): MethodGroup<'warehouse'> {
  const { connections, tracker, clock, writeContext } = ctx;
  const warehouseOf = (organizationId: string) => warehouseView(connections.requireActive(), tracker, clock, organizationId);
  return {
    'warehouse.get': (input) => warehouseOf(input.organizationId),
    'warehouse.reserve': (input) => writes.reserve(writeContext(), input),
    'warehouse.cancel': (input) => writes.cancel(writeContext(), input),
    'warehouse.finish': (input) => writes.finish(writeContext(), input),
    'warehouse.reservation': (input) => writes.getReservation(writeContext(), input),
  };
}
