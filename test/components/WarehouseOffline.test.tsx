// The warehouse when the registry goes away while it is open: its last read said online, but the
// desk's probe now says offline (the banner). Finishing and cancelling a reservation were still
// offered (walked in de-DE with the registry stopped); they are disabled now, with the reason shown.
// And when it comes back: a warehouse read offline (this computer's copy, older than a reservation
// just made) stayed as read, actions disabled, until the next sync; it is read again at once.
import { afterEach, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import type { DeskOutput } from '@shared/desk/api';
import type { ConnectionInfo } from '@shared/desk/connection-schemas';
import { WarehouseScreen } from '@renderer/screens/warehouse/WarehouseScreen';
import { useConnections } from '@renderer/stores/connections';
import { useFreshness } from '@renderer/stores/freshness';
import { useSync } from '@renderer/stores/sync';
import { render } from './render';
import { installScriptedBridge } from './scripted-bridge';
import { pendingReservation } from './reservation-stub';

const desk = installScriptedBridge();

afterEach(() => {
  desk.reset();
  useFreshness.setState({ offline: false, offlineAsOf: null });
  useConnections.setState({ list: null });
});

const NOW = new Date().toISOString();
const connection: ConnectionInfo = {
  id: 'c-1',
  name: 'Registry',
  kind: 'remote',
  baseUrl: 'http://127.0.0.1:1',
  appId: 'app-1',
  keyStatus: 'ok',
  secretStore: 'memory',
  examinerRead: false,
  installations: [
    { id: 'i-1', organizationId: 'org-a', organizationName: 'Seller Ltd.', permissions: { organization_warehouse: 'write' } },
  ],
};

const view: DeskOutput<'warehouse.get'> = {
  organizationId: 'org-a',
  organizationName: 'Seller Ltd.',
  canWrite: true,
  credits: [],
  clockOffsetMs: 0,
  offline: false,
  asOf: NOW,
  reservations: [pendingReservation(NOW)],
};

it('disables finishing and cancelling, and says why, once the desk finds the registry gone', async () => {
  desk.answer('warehouse.get', () => view);
  useConnections.setState({ list: { activeId: 'c-1', connections: [connection], keychain: { available: true } } });
  render(<WarehouseScreen />);
  const finish = page.getByRole('button', { name: 'Finish…' });
  await expect.element(finish).toBeEnabled();
  await expect.element(page.getByRole('button', { name: 'Cancel reservation' })).toBeEnabled();

  useFreshness.getState().setOnline(false);
  await expect.element(finish).toBeDisabled();
  await expect.element(page.getByRole('button', { name: 'Cancel reservation' })).toBeDisabled();
  await expect
    .element(
      page.getByText('The registry cannot be reached: reserving, finishing and cancelling are done by the registry', { exact: false }),
    )
    .toBeVisible();
  expect(desk.calls.filter((c) => c.method === 'warehouse.get')).toHaveLength(1);

  useFreshness.getState().setOnline(true);
  await expect.element(finish).toBeEnabled();
});

it('read offline from this computer, it is read again from the registry as soon as the desk finds it back', async () => {
  const service = crypto.randomUUID();
  desk.answer('sync.status', () => ({
    running: false,
    progress: null,
    lastSuccess: { projects: NOW },
    lastError: null,
    online: false,
    dataAsOf: NOW,
    runsEnded: { service, count: 0 },
  }));
  // The copy of the last sync, made before the reservation: nothing reserved, nothing to finish.
  desk.answer('warehouse.get', () => ({ ...view, reservations: [], offline: true }));
  const stop = useSync.getState().start();
  try {
    useConnections.setState({ list: { activeId: 'c-1', connections: [connection], keychain: { available: true } } });
    render(<WarehouseScreen />);
    await expect.element(page.getByText('No reservations yet')).toBeVisible();
    await expect.poll(() => useFreshness.getState().offline).toBe(true);

    desk.answer('warehouse.get', () => view);
    desk.emit({ type: 'online.changed', online: true });
    await expect.element(page.getByRole('button', { name: 'Finish…' })).toBeEnabled();
    expect(desk.calls.filter((c) => c.method === 'warehouse.get')).toHaveLength(2);
  } finally {
    stop();
  }
});
