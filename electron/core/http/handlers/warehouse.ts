import type { Handlers } from '../types';
import { notImplemented } from './not-implemented';

export const warehouseHandlers: Pick<
  Handlers,
  'getWarehouseInventory' | 'listReservations' | 'createReservation' | 'getReservation' | 'cancelReservation' | 'finishReservation'
> = {
  getWarehouseInventory: notImplemented('getWarehouseInventory'),
  listReservations: notImplemented('listReservations'),
  createReservation: notImplemented('createReservation'),
  getReservation: notImplemented('getReservation'),
  cancelReservation: notImplemented('cancelReservation'),
  finishReservation: notImplemented('finishReservation'),
};
