// Issue 19 items 1 and 2 (dialogs): Reserve, Finish and Finalize open with focus on their first field,
// not on "×", and closing one gives focus back to the button that opened it. Keyboard only: controls
// are focused and pressed with keys, never clicked.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { scrollToRetirement } from './helpers';

async function press(page: Page, locator: ReturnType<Page['locator']>, key = 'Enter') {
  await locator.focus();
  await page.keyboard.press(key);
}

test.describe('warehouse dialogs', () => {
  test.use({ deskOptions: { registry: 'remote', scale: 1 } });

  test('Reserve and Finish open on their first field and give focus back when closed', async ({ app }) => {
    await app.keyboard.press('Control+4');
    const credits = app.getByRole('table', { name: 'Warehouse credits' });
    await expect(credits).toBeVisible();
    const firstRow = credits.getByRole('row').nth(1);
    const serialization = (await firstRow.getByRole('cell').nth(1).textContent())!;
    const reserveButton = firstRow.getByRole('button', { name: /^Reserve/ });

    // Opens on the amount; Escape closes it and focus is back on Reserve.
    await press(app, reserveButton);
    const reserve = app.getByRole('dialog', { name: 'Reserve credits' });
    await expect(reserve.getByLabel('Amount to reserve (tonnes)')).toBeFocused();
    await app.keyboard.press('Escape');
    await expect(reserve).toBeHidden();
    await expect(reserveButton).toBeFocused();

    // Typing right away goes into the amount; Enter reserves; focus is back on Reserve.
    await press(app, reserveButton);
    await app.keyboard.type('1.5');
    await expect(reserve.getByTestId('understood-amount')).toContainText('1.5');
    await app.keyboard.press('Enter');
    await expect(reserve).toBeHidden();
    await expect(reserveButton).toBeFocused();

    // Finish opens on the first choice, not on "×"; Escape gives focus back to Finish….
    const reservation = app
      .getByRole('table', { name: 'Reservations' })
      .getByRole('row', { name: `Reservation of 1.5 t of ${serialization}` })
      .first();
    const finishButton = reservation.getByRole('button', { name: 'Finish…' });
    await press(app, finishButton);
    const finish = app.getByRole('dialog', { name: /Finish reservation/ });
    await expect(finish.getByRole('radio', { name: 'Transfer', exact: true })).toBeFocused();
    await app.keyboard.press('Escape');
    await expect(finish).toBeHidden();
    await expect(finishButton).toBeFocused();
  });
});

test('Finalize opens on its first field and gives focus back when closed', async ({ app, desk }) => {
  const wallet = desk.credentials.wallets[0]!;
  const id = wallet.retirements[0]!.id;
  await app.keyboard.press('Control+3');
  await expect(app.getByRole('heading', { level: 1, name: 'Retirements' })).toBeVisible();
  await app.getByRole('combobox', { name: 'Claim' }).selectOption('unclaimed');
  const row = await scrollToRetirement(app, id);
  await press(app, row.getByRole('button', { name: 'Unclaimed' }));
  const details = app.getByRole('complementary', { name: 'Retirement details' });
  await expect(details).toContainText(id);
  const finalizeButton = details.getByRole('button', { name: 'Finalize with wallet…' });
  await press(app, finalizeButton);
  const dialog = app.getByRole('dialog', { name: 'Finalize retirement' });
  await expect(dialog.getByRole('radio', { checked: true })).toBeFocused();
  await app.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(finalizeButton).toBeFocused();
});
