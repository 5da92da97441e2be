// 4.5 Organization warehouse. The authenticator has already checked, from the endpoint table, that
// the caller holds an installation token of the organization in the path with the permission the
// endpoint needs; the registry's warehouse module does the rest.
import type { Handlers } from '../types';
import { pageOf } from '../pagination';
import { readAlong } from '../read-along';
import { inventoryRead, presentInventory } from '@registry/warehouse/inventory';
import { cancelReservation, countReservations, getReservation, listReservations, reserveCredits } from '@registry/warehouse/reservations';
import { finishReservation } from '@registry/warehouse/finish';

export const warehouseHandlers: Pick<
  Handlers,
  'getWarehouseInventory' | 'listReservations' | 'createReservation' | 'getReservation' | 'cancelReservation' | 'finishReservation'
> = {
  // `development` is accepted and ignored: the interface does not say what it means. The read goes
  // with the token's lookup (read-along.ts): the hottest read, one round trip on PostgreSQL.
  getWarehouseInventory: readAlong({
    read: ({ params, registry }) => inventoryRead(registry, params.id),
    answer: ({ params, registry }, rows) => ({ credits: presentInventory(registry, params.id, rows), organizationId: params.id }),
  }),

  listReservations: ({ params, query, registry }) => {
    const { pagination, offset } = pageOf(countReservations(registry, params.id), query.page, query.limit);
    return { pagination, reservations: listReservations(registry, params.id, { offset, limit: query.limit }) };
  },

  createReservation: ({ params, body, caller, registry }) => {
    const { creditId, amount } = body;
    return reserveCredits(registry, { organizationId: params.id, appId: caller.kind === 'token' ? caller.appId : '', creditId, amount });
  },

  getReservation: ({ params, registry }) => getReservation(registry, params.id, params.reservationId),

  cancelReservation: ({ params, registry }) => cancelReservation(registry, params.id, params.reservationId),

  finishReservation: ({ params, body, registry }) =>
    finishReservation(registry, {
      organizationId: params.id,
      reservationId: params.reservationId,
      action: params.action,
      body,
    }),
};
