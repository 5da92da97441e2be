// Issue 19 item 1: focus never falls to <body>. After each action that removes, disables or replaces
// the focused control, focus is on the opener, the new step's heading or first field, or the affected
// row. Keyboard only: controls are focused and pressed with keys, never clicked.
import type { Locator, Page } from '@playwright/test';
import { expect, nextAppEvent, test } from './fixtures';

async function press(page: Page, locator: Locator, key = 'Enter') {
  await locator.focus();
  await page.keyboard.press(key);
}

/** Focus is on something, never on <body>, and stays so across the next renders. */
async function expectFocusKept(page: Page) {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  expect(await page.evaluate(() => document.activeElement !== null && document.activeElement !== document.body)).toBe(true);
}

test.describe('warehouse', () => {
  test.use({ deskOptions: { registry: 'remote', scale: 1 } });

  test('reserve, finish step by step, close the outcome, cancel, sync now', async ({ app }) => {
    await app.keyboard.press('Control+4');
    const credits = app.getByRole('table', { name: 'Warehouse credits' });
    const firstRow = credits.getByRole('row').nth(1);
    const serialization = (await firstRow.getByRole('cell').nth(1).textContent())!;
    const reserveButton = firstRow.getByRole('button', { name: /^Reserve/ });
    const reserve = app.getByRole('dialog', { name: 'Reserve credits' });
    const reservations = app.getByRole('table', { name: 'Reservations' });

    // Two reservations: one to finish, one to cancel. Submitting Reserve gives focus back to Reserve.
    for (const amount of ['1.25', '1.75']) {
      await press(app, reserveButton);
      await app.keyboard.type(amount);
      await expect(reserve.getByTestId('understood-amount')).toContainText(amount);
      await app.keyboard.press('Enter');
      await expect(reserve).toBeHidden();
      await expect(reserveButton).toBeFocused();
      await expect(reservations.getByRole('row', { name: `Reservation of ${amount} t of ${serialization}` })).toBeVisible();
    }

    // Finish: the form, Review → the confirmation's heading, Back → the first field, Transfer → the outcome.
    const finishRow = reservations.getByRole('row', { name: `Reservation of 1.25 t of ${serialization}` });
    await press(app, finishRow.getByRole('button', { name: 'Finish…' }));
    const finish = app.getByRole('dialog', { name: /Finish reservation|Outcome/ });
    const transferRadio = finish.getByRole('radio', { name: 'Transfer', exact: true });
    await expect(transferRadio).toBeFocused();
    await app.keyboard.press('Space');
    await expect(transferRadio).toBeChecked();
    const receiver = finish.getByLabel('Receiving organization');
    await receiver.focus();
    await receiver.selectOption({ index: 1 });
    await press(app, finish.getByRole('button', { name: 'Review' }));
    const confirmHeading = finish.getByRole('heading', { name: /Please confirm/ });
    await expect(confirmHeading).toBeFocused();
    await press(app, finish.getByRole('button', { name: 'Back' }));
    await expect(transferRadio).toBeFocused();
    await press(app, finish.getByRole('button', { name: 'Review' }));
    await expect(confirmHeading).toBeFocused();
    const transfer = finish.getByRole('button', { name: 'Transfer', exact: true });
    await press(app, transfer);
    const outcome = finish.getByRole('status').filter({ hasText: /transferred|processing/ });
    await expect(outcome).toBeFocused();
    await expect(outcome).toContainText('The credits were transferred.');
    // Closing the outcome: the Finish button is gone with the reservation's state, so focus goes to its row.
    await press(app, finish.getByRole('button', { name: 'Close', exact: true }).last());
    await expect(finish).toBeHidden();
    await expect(finishRow).toBeFocused();
    await expectFocusKept(app);

    // Cancel reservation → "Yes, cancel it"; "Keep it" → back; cancelled → its row.
    const cancelRow = reservations.getByRole('row', { name: `Reservation of 1.75 t of ${serialization}` });
    const cancelButton = cancelRow.getByRole('button', { name: 'Cancel reservation' });
    await press(app, cancelButton);
    await expect(cancelRow.getByRole('button', { name: 'Yes, cancel it' })).toBeFocused();
    await press(app, cancelRow.getByRole('button', { name: 'Keep it' }));
    await expect(cancelButton).toBeFocused();
    await app.keyboard.press('Enter');
    await press(app, cancelRow.getByRole('button', { name: 'Yes, cancel it' }));
    await expect(cancelRow).toHaveAttribute('data-phase', 'cancelled');
    await expect(cancelRow).toBeFocused();
    await expectFocusKept(app);

    // Sync now keeps focus while it syncs (aria-disabled, not disabled).
    const syncNow = app.getByRole('button', { name: 'Sync now' });
    // (A disabled button drops focus for good, however short the sync.)
    const finished = nextAppEvent(app, 'desk:sync-finished');
    await press(app, syncNow);
    await finished;
    await expect(syncNow).toBeFocused({ timeout: 120_000 });
  });
});

test('project row and back, retirement details, the add-connection form', async ({ app }) => {
  // Opening a project row focuses the project's heading; "← All projects" focuses its row again.
  const list = app.getByRole('table', { name: 'Projects' });
  const row = list.getByRole('row').nth(1);
  const name = (await row.locator('.cell-primary').textContent())!;
  await press(app, row);
  const heading = app.getByRole('heading', { level: 1, name });
  await expect(heading).toBeFocused();
  await press(app, app.getByRole('button', { name: '← All projects' }));
  await expect(list.getByRole('row').nth(1)).toBeFocused();
  await expect(list.getByRole('row').nth(1)).toContainText(name);

  // Closing a retirement's details gives focus back to its row's name.
  await app.keyboard.press('Control+3');
  const retirements = app.getByRole('table', { name: 'Retirements' });
  const opener = retirements.locator('tbody tr[data-retirement-id]').first().getByRole('button');
  await press(app, opener);
  const details = app.getByRole('complementary', { name: 'Retirement details' });
  await expect(details).toBeVisible();
  await press(app, details.getByRole('button', { name: 'Close details' }));
  await expect(details).toBeHidden();
  await expect(opener).toBeFocused();

  // The add-connection form opens on its first field; Cancel gives focus back to its button.
  await app.keyboard.press('Control+6');
  const add = app.getByRole('button', { name: 'Add remote connection…' });
  await press(app, add);
  const form = app.getByRole('form', { name: 'Add a remote connection' });
  await expect(form.getByLabel('Connection name')).toBeFocused();
  await press(app, form.getByRole('button', { name: 'Cancel' }));
  await expect(form).toBeHidden();
  await expect(add).toBeFocused();
});
