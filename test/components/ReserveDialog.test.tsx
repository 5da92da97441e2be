// A reservation under way cannot be closed (Escape, × and Cancel say why): closed, the desk still made
// it, and its end closed whatever reservation dialog had been opened since (another credit's). A
// reservation whose dialog left the page (another screen) calls nothing back when it ends.
import { afterEach, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import type { WarehouseInventoryCredit } from '@shared/registry/resources';
import { ReserveDialog } from '@renderer/screens/warehouse/ReserveDialog';
import { LeavableScreen } from './LeavableScreen';
import { render } from './render';
import { installScriptedBridge } from './scripted-bridge';

const desk = installScriptedBridge();

afterEach(() => desk.reset());

const credit: WarehouseInventoryCredit = {
  id: 'credit-1',
  inventoryId: 'inventory-1',
  organizationId: 'organization-1',
  project: { id: 'project-1', fullName: 'Kenya Cookstoves', url: '', publicUrl: '', num: '12' },
  serialization: 'RDR-KEN-1-12-1',
  amount: 2,
  type: 'exPost',
};

/** The dialog open for one credit, on a screen that can go away. */
function Warehouse({ calls }: { calls: { closed: number; reserved: string[] } }) {
  return (
    <LeavableScreen
      dialog={(close) => (
        <ReserveDialog
          organizationId="organization-1"
          credit={credit}
          onClose={() => {
            calls.closed++;
            close();
          }}
          onReserved={(made) => calls.reserved.push(made.id)}
        />
      )}
    />
  );
}

/** Opens the dialog, asks for 1 t and leaves the desk's answer pending: returns how to send it. */
async function reserveOneTonne(calls: { closed: number; reserved: string[] }) {
  let answer: () => void = () => {};
  desk.answer(
    'warehouse.reserve',
    () =>
      new Promise(
        (resolve) => (answer = () => resolve({ id: 'reservation-1', creditId: 'credit-1', serialization: 'RDR-KEN-1-12-1', amount: 1 })),
      ),
  );
  render(<Warehouse calls={calls} />);
  await page.getByLabelText('Amount to reserve (tonnes)').fill('1');
  await dialog()
    .getByRole('button', { name: /^Reserve 1/ })
    .click();
  await expect.poll(() => desk.calls.filter((c) => c.method === 'warehouse.reserve').length).toBe(1);
  return () => answer();
}

const dialog = () => page.getByRole('dialog', { name: 'Reserve credits' });

it('says why Reserve does nothing: an empty amount is named next to the field, nothing is sent', async () => {
  render(<Warehouse calls={{ closed: 0, reserved: [] }} />);
  const amount = page.getByLabelText('Amount to reserve (tonnes)');
  await expect.element(amount).toHaveFocus();
  await userEvent.keyboard('{Enter}');
  await expect.element(dialog().getByText('Enter an amount in tonnes.')).toBeVisible();
  await expect.element(amount).toHaveAttribute('aria-invalid', 'true');
  await expect.element(amount).toHaveFocus();
  expect(desk.calls.filter((c) => c.method === 'warehouse.reserve')).toEqual([]);
});

it('stays open while it reserves: Escape, × and Cancel say why', async () => {
  const calls = { closed: 0, reserved: [] as string[] };
  const answer = await reserveOneTonne(calls);

  await userEvent.keyboard('{Escape}');
  await expect.element(dialog()).toBeVisible();
  await userEvent.keyboard('{Escape}');
  // Pressed anyway (aria-disabled buttons can be: they keep focus), they do nothing.
  await dialog().getByRole('button', { name: 'Close dialog', exact: true }).click({ force: true });
  await dialog().getByRole('button', { name: 'Cancel' }).click({ force: true });
  await expect.element(dialog()).toBeVisible();
  await expect.element(dialog().getByRole('button', { name: 'Cancel' })).toHaveFocus();
  await expect.element(dialog().getByRole('button', { name: 'Reserving…' })).toBeVisible();
  await expect.element(dialog().getByRole('button', { name: 'Close dialog', exact: true })).toHaveAccessibleDescription(/being made/);
  expect(calls.closed).toBe(0);

  answer();
  await expect.element(dialog()).not.toBeInTheDocument();
  expect(calls).toEqual({ closed: 1, reserved: ['reservation-1'] });
});

it('taken off the page while it reserves, it calls nothing back', async () => {
  const calls = { closed: 0, reserved: [] as string[] };
  const answer = await reserveOneTonne(calls);
  // The dialog is modal: the screen goes away as another screen (a shortcut, a registry switch) replaces it.
  (page.getByRole('button', { name: 'Another screen' }).element() as HTMLButtonElement).click();
  await expect.element(dialog()).not.toBeInTheDocument();
  answer();
  await expect.poll(() => desk.answered('warehouse.reserve')).toBe(1);
  await new Promise((resolve) => requestAnimationFrame(resolve));
  expect(calls).toEqual({ closed: 0, reserved: [] });
});
