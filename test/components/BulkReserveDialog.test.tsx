// Reserving several credits cannot be closed half-way (Escape, × and Cancel say it is reserving):
// closed, the run went on unseen and at its end closed whatever bulk dialog had been opened since and
// cleared the new selection. And a run whose dialog left the page (another screen) stops after the
// reservation under way and never calls back into what replaced it.
import { afterEach, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import type { WarehouseInventoryCredit } from '@shared/registry/resources';
import { BulkReserveDialog } from '@renderer/screens/warehouse/BulkReserveDialog';
import { LeavableScreen } from './LeavableScreen';
import { render } from './render';
import { installScriptedBridge } from './scripted-bridge';

const desk = installScriptedBridge();

afterEach(() => desk.reset());

const credit = (n: number): WarehouseInventoryCredit => ({
  id: `credit-${n}`,
  inventoryId: 'inventory-1',
  organizationId: 'organization-1',
  project: { id: 'project-1', fullName: 'Kenya Cookstoves', url: '', publicUrl: '', num: '12' },
  serialization: `RDR-KEN-1-12-${n}`,
  amount: 2,
  type: 'exPost',
});

/** Reservations the test ends one by one: each waits until `finish()` (oldest first). */
function heldReservations() {
  const pending: Array<() => void> = [];
  desk.answer(
    'warehouse.reserve',
    (input) =>
      new Promise((resolve) => {
        const { creditId, amount } = input as { creditId: string; amount: number };
        pending.push(() => resolve({ id: `reservation-${creditId}`, creditId, serialization: `serial-${creditId}`, amount }));
      }),
  );
  return {
    waiting: () => pending.length,
    finish: () => pending.shift()!(),
  };
}

const reserveCalls = () => desk.calls.filter((c) => c.method === 'warehouse.reserve').length;

/** The bulk dialog open for the credits picked, on a screen that can go away. */
function Warehouse({ calls }: { calls: { closed: number; reserved: boolean[] } }) {
  return (
    <LeavableScreen
      dialog={(close) => (
        <BulkReserveDialog
          organizationId="organization-1"
          credits={[credit(1), credit(2)]}
          onClose={() => {
            calls.closed++;
            close();
          }}
          onReserved={(all) => calls.reserved.push(all)}
        />
      )}
    />
  );
}

const dialog = () => page.getByRole('dialog', { name: 'Reserve 2 credits' });

it('stays open while it reserves: Escape, × and Cancel say why', async () => {
  const reservations = heldReservations();
  const calls = { closed: 0, reserved: [] as boolean[] };
  render(<Warehouse calls={calls} />);
  await dialog().getByRole('button', { name: 'Reserve 2 credits' }).click();
  await expect.poll(() => reservations.waiting()).toBe(1);

  await userEvent.keyboard('{Escape}');
  await expect.element(dialog()).toBeVisible();
  await userEvent.keyboard('{Escape}');
  // Pressed anyway (aria-disabled buttons can be: they keep focus), they do nothing.
  await dialog().getByRole('button', { name: 'Close dialog', exact: true }).click({ force: true });
  await dialog().getByRole('button', { name: 'Cancel' }).click({ force: true });
  await expect.element(dialog()).toBeVisible();
  // Pressed, the busy button kept focus (aria-disabled, not disabled).
  const running = dialog().getByRole('button', { name: 'Reserving 1 of 2…' });
  await expect.element(running).toHaveAttribute('aria-disabled', 'true');
  await expect.element(dialog().getByText('this closes once the last one is done', { exact: false })).toBeVisible();
  await expect.element(dialog().getByRole('button', { name: 'Close dialog', exact: true })).toHaveAttribute('aria-disabled', 'true');
  expect(calls.closed).toBe(0);

  reservations.finish();
  await expect.poll(() => reservations.waiting()).toBe(1);
  reservations.finish();
  await expect.element(dialog()).not.toBeInTheDocument();
  expect(calls).toEqual({ closed: 1, reserved: [true] });
  expect(reserveCalls()).toBe(2);
});

it('taken off the page mid-run, it stops after the reservation under way and calls nothing back', async () => {
  const reservations = heldReservations();
  const calls = { closed: 0, reserved: [] as boolean[] };
  render(<Warehouse calls={calls} />);
  await dialog().getByRole('button', { name: 'Reserve 2 credits' }).click();
  await expect.poll(() => reservations.waiting()).toBe(1);

  // The dialog is modal: the screen goes away as another screen (a shortcut, a registry switch) replaces it.
  (page.getByRole('button', { name: 'Another screen' }).element() as HTMLButtonElement).click();
  await expect.element(dialog()).not.toBeInTheDocument();
  reservations.finish();
  // A few turns of the event loop for a next reservation that must not come.
  await vi.waitFor(() => expect(desk.answered('warehouse.reserve')).toBe(1));
  await new Promise((resolve) => requestAnimationFrame(resolve));
  expect(reserveCalls()).toBe(1);
  expect(calls).toEqual({ closed: 0, reserved: [] });
});
