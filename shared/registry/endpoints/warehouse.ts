// The seed interface, an organization's warehouse and its reservations (4.5).
import { z } from 'zod';
import { FINISH_ACTIONS } from '../vocabulary';
import { pageQuery, noQuery, idString, developmentQuery, define } from './define';
import { reserveBody, finishBody, finishRetireBody } from './bodies';
import { warehouseInventoryResponse } from './responses';

export const warehouseEndpoints = {
  // 4.5 Organization warehouse
  getWarehouseInventory: define({
    method: 'GET',
    path: '/organizations/{id}/warehouse/inventory',
    summary: "Credits available in an organization's warehouse",
    params: z.object({ id: idString('id') }),
    query: developmentQuery,
    response: (s) => warehouseInventoryResponse(s),
    auth: { kind: 'accessToken', permission: 'organization_warehouse:read', organizationParam: 'id' },
    tags: ['warehouse'],
  }),
  listReservations: define({
    method: 'GET',
    path: '/organizations/{id}/warehouse/inventory/reservations',
    summary: 'All reservations: active, expired and finished, newest first',
    params: z.object({ id: idString('id') }),
    query: pageQuery,
    response: (s) => s.object({ pagination: s.pagination, reservations: z.array(s.reservation) }),
    auth: { kind: 'accessToken', permission: 'organization_warehouse:read', organizationParam: 'id' },
    tags: ['warehouse'],
  }),
  createReservation: define({
    method: 'POST',
    path: '/organizations/{id}/warehouse/inventory/reservations',
    summary: 'Reserve credits for 10 minutes',
    params: z.object({ id: idString('id') }),
    query: developmentQuery,
    body: reserveBody,
    response: (s) => s.object({ id: z.string(), creditId: z.string(), serialization: z.string(), amount: z.number() }),
    auth: { kind: 'accessToken', permission: 'organization_warehouse:write', organizationParam: 'id' },
    tags: ['warehouse'],
  }),
  getReservation: define({
    method: 'GET',
    path: '/organizations/{id}/warehouse/inventory/reservations/{reservationId}',
    summary: 'One reservation',
    params: z.object({ id: idString('id'), reservationId: idString('reservationId') }),
    query: noQuery,
    response: (s) => s.reservation,
    auth: { kind: 'accessToken', permission: 'organization_warehouse:read', organizationParam: 'id' },
    tags: ['warehouse'],
  }),
  cancelReservation: define({
    method: 'DELETE',
    path: '/organizations/{id}/warehouse/inventory/reservations/{reservationId}',
    summary: 'Cancel an active reservation',
    params: z.object({ id: idString('id'), reservationId: idString('reservationId') }),
    query: noQuery,
    response: (s) => s.reservation,
    auth: { kind: 'accessToken', permission: 'organization_warehouse:write', organizationParam: 'id' },
    tags: ['warehouse'],
  }),
  finishReservation: define({
    method: 'POST',
    path: '/organizations/{id}/warehouse/inventory/reservations/{reservationId}/{action}',
    summary: 'Finish a reservation: transfer, or transfer and retire',
    params: z.object({
      id: idString('id'),
      reservationId: idString('reservationId'),
      action: z.enum(FINISH_ACTIONS, { error: `action must be one of ${FINISH_ACTIONS.join(', ')}` }),
    }),
    query: noQuery,
    body: finishBody,
    bodyByParam: { param: 'action', bodies: { transfer: finishBody, transfer_retire: finishRetireBody } },
    response: (s) => s.object({ success: z.boolean(), transactionId: z.string(), state: z.string() }),
    auth: { kind: 'accessToken', permission: 'organization_warehouse:write', organizationParam: 'id' },
    tags: ['warehouse'],
  }),
} as const;
