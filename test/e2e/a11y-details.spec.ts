// Issue 19 item 4: a details panel takes focus when it opens (its heading, so its actions are a few Tab
// presses away, not ~1,700) and gives it back to its row when it closes. Keyboard only: controls are
// focused and pressed with keys, never clicked.
import { execFileSync } from 'node:child_process';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';

async function press(page: Page, locator: Locator, key = 'Enter') {
  await locator.focus();
  await page.keyboard.press(key);
}

/** Presses Tab until `target` has focus; returns how many presses it took (fails past `most`). */
async function tabTo(page: Page, target: Locator, most: number): Promise<number> {
  for (let presses = 1; presses <= most; presses++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((el) => el === document.activeElement)) return presses;
  }
  throw new Error(`not reached in ${most} Tab presses`);
}

test('retirement and organization details take focus and give it back to their row', async ({ app }) => {
  // Find a claimed retirement by its beneficiary, open it: focus is in the panel, the certificate 4 Tabs away.
  await app.keyboard.press('Control+3');
  const table = app.getByRole('table', { name: 'Retirements' });
  await app.getByRole('combobox', { name: 'Claim' }).selectOption('claimed');
  const firstRow = table.locator('tbody tr[data-retirement-id]').first();
  const beneficiary = (await firstRow.getByRole('button').textContent())!;
  await app.keyboard.press('Control+f');
  await app.keyboard.type(beneficiary);
  await app.keyboard.press('Enter');
  const row = table.locator('tbody tr[data-retirement-id]').filter({ hasText: beneficiary }).first();
  const opener = row.getByRole('button', { name: beneficiary });
  await press(app, opener);
  const details = app.getByRole('complementary', { name: 'Retirement details' });
  await expect(details.getByRole('heading', { name: 'Retirement' })).toBeFocused();
  const download = details.getByRole('button', { name: 'Download certificate (PDF)' });
  expect(await tabTo(app, download, 6)).toBeLessThanOrEqual(6);
  const [file] = await Promise.all([app.waitForEvent('download'), app.keyboard.press('Enter')]);
  expect(execFileSync('pdftotext', [await file.path(), '-'], { encoding: 'utf8' })).toContain(beneficiary);
  await expect(download).toBeFocused();
  // Escape closes the panel: focus is back on the row's name.
  await app.keyboard.press('Escape');
  await expect(details).toBeHidden();
  await expect(opener).toBeFocused();

  // An organization's details likewise.
  await app.keyboard.press('Control+5');
  const organizations = app.getByRole('table', { name: 'Organizations' });
  const orgOpener = organizations.locator('tbody tr').first().getByRole('button');
  const name = (await orgOpener.textContent())!;
  await press(app, orgOpener);
  const orgDetails = app.getByRole('complementary', { name: 'Organization details' });
  await expect(orgDetails.getByRole('heading', { name })).toBeFocused();
  await app.keyboard.press('Escape');
  await expect(orgDetails).toBeHidden();
  await expect(orgOpener).toBeFocused();
});
