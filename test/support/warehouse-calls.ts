// Organization A's warehouse calls as the warehouse tests make them, with the world's WRITE
// installation token unless told otherwise: its inventory, the credit's available amount, and a
// reservation's reserve, get, finish and cancel. Each success is parsed with the strict contract.
import { callEndpoint, ok, type WarehouseWorld } from '@test/support/warehouse';

/** The calls on the world `world()` returns (a getter: the world is started in the file's beforeAll). */
export function warehouseCalls(world: () => WarehouseWorld) {
  const A = () => ({ id: world().f.orgA });
  const inventory = async () =>
    ok('getWarehouseInventory', await callEndpoint(world().t, 'getWarehouseInventory', { token: world().writeToken, params: A() }));
  const available = async () => (await inventory()).credits.find((c) => c.id === world().f.creditId)?.amount ?? 0;
  const reserve = async (amount: number, token = world().writeToken) =>
    ok(
      'createReservation',
      await callEndpoint(world().t, 'createReservation', { token, params: A(), body: { creditId: world().f.creditId, amount } }),
    );
  const get = async (reservationId: string) =>
    ok('getReservation', await callEndpoint(world().t, 'getReservation', { token: world().writeToken, params: { ...A(), reservationId } }));
  const finish = (reservationId: string, action: string, body: unknown, token = world().writeToken) =>
    callEndpoint(world().t, 'finishReservation', { token, params: { ...A(), reservationId, action }, body });
  const cancel = (reservationId: string, token = world().writeToken) =>
    callEndpoint(world().t, 'cancelReservation', { token, params: { ...A(), reservationId } });
  return { A, inventory, available, reserve, get, finish, cancel };
}
