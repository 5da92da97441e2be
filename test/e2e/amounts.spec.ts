// Amounts follow the user's locale: in English "1,5" is refused in words (it once reserved 15 t),
// "1.5" is understood and shown as "1.5 t" before the button acts; in German "1,5" is 1.5 t.
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import Database from 'better-sqlite3';
import { expect, screenshotBothThemes, test } from './fixtures';

async function openReserveDialog(page: Page) {
  await page.keyboard.press('Control+4');
  const row = page.getByRole('table', { name: 'Warehouse credits' }).getByRole('row').nth(1);
  const serialization = (await row.getByRole('cell').nth(1).textContent())!;
  await row.getByRole('button', { name: /^Reserve/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Reserve credits' });
  return {
    dialog,
    serialization,
    amount: dialog.getByLabel('Amount to reserve (tonnes)'),
    understood: dialog.getByTestId('understood-amount'),
  };
}

test.describe('in an English locale', () => {
  test.use({ locale: 'en-US' });

  test('1,5 is refused in words, 1.5 is understood as 1.5 t and reserved exactly', async ({ app }) => {
    const { dialog, serialization, amount, understood } = await openReserveDialog(app);
    const button = dialog.getByRole('button', { name: /^Reserve/ });
    await expect(button).toBeDisabled();

    await amount.fill('1,5');
    await expect(
      dialog.getByText('“1,5” is ambiguous: in this desk “,” separates thousands, so write 1.5 if that is what you mean.'),
    ).toBeVisible();
    await expect(button).toBeDisabled();
    await expect(understood).not.toContainText('15');
    await screenshotBothThemes(app, 'amounts-refused-en');

    await amount.fill('1.5');
    await expect(understood).toHaveText('Understood as 1.5 t.');
    await expect(button).toHaveText('Reserve 1.5 t');
    await button.click();
    await expect(dialog).toBeHidden();
    const reservation = app
      .getByRole('table', { name: 'Reservations' })
      .getByRole('row', { name: `Reservation of 1.5 t of ${serialization}` });
    await expect(reservation.first()).toHaveAttribute('data-phase', 'active');
    await expect(reservation.first().getByRole('cell').nth(1)).toHaveText('1.5 t');
  });
});

test.describe('in a German locale', () => {
  test.use({ locale: 'de-DE' });

  test('1,5 is one and a half tonnes, 1.5 is refused as ambiguous', async ({ app }) => {
    const { dialog, amount, understood } = await openReserveDialog(app);
    await amount.fill('1.5');
    await expect(
      dialog.getByText('“1.5” is ambiguous: in this desk “.” separates thousands, so write 1,5 if that is what you mean.'),
    ).toBeVisible();
    await expect(dialog.getByRole('button', { name: /^Reserve/ })).toBeDisabled();
    await amount.fill('1,5');
    await expect(understood).toHaveText('Understood as 1,5 t.');
    await expect(dialog.getByRole('button', { name: /^Reserve/ })).toHaveText('Reserve 1,5 t');
    await screenshotBothThemes(app, 'amounts-understood-de');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // One language for text, the locale for numbers: country names stay English, and Settings says so.
    await app.keyboard.press('Control+5');
    await expect(app.getByRole('table', { name: 'Organizations' })).toContainText('Kenya');
    await app.keyboard.press('Control+6');
    // One date and one time format, the locale's: named with an example.
    await expect(app.getByTestId('language-note')).toHaveText(
      /^Text is in English\. Numbers, amounts, dates and times follow your locale, de-DE \(for example 1\.234,5 t, \d\d\.11\.2026, \d\d:57\)\.$/,
    );
  });

  test('the issuance form and review follow the locale: dates as 30.06.YYYY, the buffer share as 12,5 %', async ({ app, desk }) => {
    // an issuable project of a verified organization (the list's order holds others first at times)
    const db = new Database(join(desk.dataDir, 'embedded-registry', 'registry.sqlite'), { readonly: true, fileMustExist: true });
    const project = db
      .prepare(
        `SELECT p.id FROM projects p JOIN organizations o ON o.id = p.organization_id
         WHERE p.status IN ('validated', 'registered') AND o.is_verified = 1 ORDER BY p.full_name LIMIT 1`,
      )
      .get() as { id: string };
    db.close();
    await app.getByRole('button', { name: 'Issuance' }).click();
    const form = app.getByRole('form', { name: 'Issuance' });
    await form.getByLabel('Project').selectOption(project.id);
    await form.getByLabel('Amount (tonnes)').fill('10');
    await form.getByLabel('Verification body').selectOption({ index: 1 });
    // dates too are typed as the page's locale writes them (a native date field followed the browser's language)
    const lastYear = new Date().getFullYear() - 1;
    await expect(form.getByLabel('Monitoring period start')).toHaveValue(`01.01.${lastYear}`);
    await form.getByLabel('Monitoring period end').fill(`30.6.${lastYear}`);
    await form.getByLabel('Buffer share (%)').fill('12,5');
    await expect(form.getByLabel('Monitoring period end')).toHaveValue(`30.06.${lastYear}`);
    await form.getByRole('button', { name: 'Review issuance' }).click();
    await expect(app.getByTestId('buffer-share')).toContainText('1,25 t to the buffer account (12,5 %)');
  });
});
