// Issue 15 item 14: one way of writing tonnes: grouped with the same (exact) decimals on every
// screen and on the certificate; plain numbers in the CSV.
import { execFileSync } from 'node:child_process';
import { csvRecords } from './csv';
import { expect, screenshotBothThemes, test } from './fixtures';
import { downloadText, waitForRowsInView } from './helpers';

const GROUPED_TONNES = /^\d{1,3}(,\d{3})*(\.\d{1,6})? t$/;

test('amounts are grouped in the desk and on the certificate, plain in the CSV', async ({ app }) => {
  // Inventories, largest first: the amount column is grouped.
  await app.keyboard.press('Control+2');
  const table = app.getByRole('table', { name: 'Buffer credits' });
  await table.getByRole('button', { name: /^Amount/ }).click();
  const firstAmount = table.locator('.table-scroll [role="row"]').first().getByRole('cell').nth(4);
  await expect(firstAmount).toHaveText(/,\d{3}/);
  const shown = (await firstAmount.textContent())!;
  expect(shown).toMatch(GROUPED_TONNES);
  for (const tile of await app.getByRole('definition').allTextContents()) expect(tile).toMatch(GROUPED_TONNES);

  // The CSV of the same list: the same amount, machine-readable.
  const { text } = await downloadText(app, app.getByRole('button', { name: 'Export CSV' }));
  const records = csvRecords(text);
  const amount = records[0]!['Amount (tCO2e)']!;
  expect(amount).toMatch(/^\d+(\.\d+)?$/);
  expect(`${Number(amount).toLocaleString('en-US', { maximumFractionDigits: 6 })} t`).toBe(shown);

  // A claimed retirement: the details and the certificate write the amount the same way.
  await app.keyboard.press('Control+3');
  await app.getByRole('combobox', { name: 'Claim' }).selectOption('claimed');
  await waitForRowsInView(app, 'Retirements');
  const retirements = app.getByRole('table', { name: 'Retirements' });
  await retirements.getByRole('button', { name: /^Amount/ }).click();
  await waitForRowsInView(app, 'Retirements');
  const row = retirements.locator('tbody tr[data-retirement-id]').first();
  const rowAmount = (await row.locator('td').nth(5).textContent())!;
  expect(rowAmount).toMatch(GROUPED_TONNES);
  await row.click();
  const details = app.getByRole('complementary', { name: 'Retirement details' });
  await expect(details).toContainText(rowAmount);
  const { path } = await downloadText(app, details.getByRole('button', { name: 'Download certificate (PDF)' }));
  const pdf = execFileSync('pdftotext', [path, '-'], { encoding: 'utf8' });
  expect(pdf).toContain(`${rowAmount.replace(/ t$/, '')} tCO2e`);
  await screenshotBothThemes(app, 'issue-15-numbers');
});
