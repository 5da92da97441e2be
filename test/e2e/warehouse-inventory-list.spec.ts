// Issue 15 item 5: the warehouse inventory is the inventories' list (search, vintage and type
// filters with counts, sort, count and total, vintage column, CSV of what is listed), with
// multi-select (shift-click range, select all) to reserve several credits at once.
import type { Page } from '@playwright/test';
import { csvRecords } from './csv';
import { expect, screenshotBothThemes, test } from './fixtures';
import { downloadText, optionLabels } from './helpers';

interface ShownWarehouseCredit {
  project: string;
  serialization: string;
  vintage: string;
  amount: number;
  type: string;
}

async function shownCredits(page: Page): Promise<ShownWarehouseCredit[]> {
  return page
    .getByRole('table', { name: 'Warehouse credits' })
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) => {
        const cells = [...row.querySelectorAll('td')].map((c) => c.textContent ?? '');
        return {
          project: row.querySelector('td')?.firstChild?.textContent ?? '',
          serialization: cells[1] ?? '',
          vintage: cells[2] ?? '',
          amount: Number((cells[3] ?? '').replace(/[^\d.]/g, '')),
          type: cells[5] ?? '',
        };
      }),
    );
}

/** "12 credits · 1,234 t available" or "3 credits of 12 match · …": the number of credits listed. */
async function listedCount(page: Page): Promise<number> {
  const text = (await page.locator('.inventory-count').textContent())!;
  return Number(/^([\d,]+) credits?/.exec(text)![1]!.replace(/,/g, ''));
}

test('the warehouse inventory is searched, filtered, sorted, counted, exported and multi-reserved', async ({ app }) => {
  await app.keyboard.press('Control+4');
  const table = app.getByRole('table', { name: 'Warehouse credits' });
  await expect(table).toBeVisible();
  const all = await shownCredits(app);
  expect(all.length).toBeGreaterThan(3);
  expect(await listedCount(app)).toBe(all.length);
  // The vintage column is the year the serialization ends with.
  for (const c of all) expect(c.serialization.endsWith(`-${c.vintage}`)).toBe(true);
  // The default order is by project.
  const projects = all.map((c) => c.project);
  expect(projects).toEqual([...projects].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base', numeric: true })));

  // Sort by what is available, largest first.
  await table.getByRole('button', { name: /^Available/ }).click();
  const byAmount = (await shownCredits(app)).map((c) => c.amount);
  expect(byAmount).toEqual([...byAmount].sort((a, b) => b - a));

  // The vintage filter: each value's count is the number of rows it lists.
  const vintage = app.getByRole('combobox', { name: 'Vintage' });
  const labels = await optionLabels(vintage);
  expect(labels.length).toBeGreaterThan(0);
  const [, year, count] = /^(\d{4}) \((\d+)\)$/.exec(labels[0]!)!;
  await vintage.selectOption(year!);
  let shown = await shownCredits(app);
  expect(shown.length).toBe(Number(count));
  expect(await listedCount(app)).toBe(shown.length);
  for (const c of shown) expect(c.vintage).toBe(year);
  // The type filter's counts now respect the vintage chosen.
  const typeLabels = await optionLabels(app.getByRole('combobox', { name: 'Type' }));
  const typeTotal = typeLabels.reduce((sum, l) => sum + Number(/\((\d+)\)$/.exec(l)![1]), 0);
  expect(typeTotal).toBe(shown.length);

  // A search narrows further; the CSV holds exactly the rows listed, in their order.
  const word = shown[0]!.project.split(' ')[0]!;
  await app.getByRole('searchbox', { name: 'Search warehouse credits' }).fill(word);
  shown = await shownCredits(app);
  for (const c of shown) expect(c.project.toLowerCase()).toContain(word.toLowerCase());
  await expect(app.locator('.inventory-count')).toContainText('match');
  const { text } = await downloadText(app, app.getByRole('button', { name: 'Export CSV' }));
  const records = csvRecords(text);
  expect(records.map((r) => r.Serialization)).toEqual(shown.map((c) => c.serialization));
  expect(records.map((r) => r.Vintage)).toEqual(shown.map((c) => c.vintage));

  // "Clear filters" clears the search too.
  await app.getByRole('button', { name: 'Clear filters' }).click();
  await expect(app.getByRole('searchbox', { name: 'Search warehouse credits' })).toHaveValue('');
  await expect(vintage).toHaveValue('');
  expect((await shownCredits(app)).length).toBe(all.length);

  // Select all, then none; then a shift-click range of three, reserved at once.
  const selectAll = table.getByRole('checkbox', { name: 'Select all listed credits' });
  await selectAll.check();
  await expect(app.getByRole('button', { name: `Reserve selected (${all.length})…` })).toBeVisible();
  await selectAll.uncheck();
  await expect(app.getByRole('button', { name: 'Reserve selected…' })).toBeDisabled();
  const rows = await shownCredits(app);
  const picked = rows.slice(0, 3);
  await table.getByRole('checkbox', { name: `Select ${picked[0]!.serialization}` }).click();
  await table.getByRole('checkbox', { name: `Select ${picked[2]!.serialization}` }).click({ modifiers: ['Shift'] });
  for (const c of picked) await expect(table.getByRole('checkbox', { name: `Select ${c.serialization}` })).toBeChecked();
  await expect(table.getByRole('checkbox', { name: `Select ${rows[3]!.serialization}` })).not.toBeChecked();
  await screenshotBothThemes(app, 'issue-15-warehouse-list');

  await app.getByRole('button', { name: 'Reserve selected (3)…' }).click();
  const dialog = app.getByRole('dialog', { name: 'Reserve 3 credits' });
  for (const c of picked) await expect(dialog).toContainText(c.serialization);
  await dialog.getByRole('button', { name: 'Reserve 3 credits' }).click();
  await expect(dialog).toBeHidden();
  // One reservation each, of everything the credit had available.
  const reservations = app.getByRole('table', { name: 'Reservations' });
  for (const c of picked) {
    const amount = `${c.amount.toLocaleString('en-US', { maximumFractionDigits: 6 })} t`;
    await expect(reservations.getByRole('row', { name: `Reservation of ${amount} of ${c.serialization}` })).toHaveAttribute(
      'data-phase',
      'active',
    );
  }
  await expect(app.getByRole('button', { name: 'Reserve selected…' })).toBeDisabled();
  // Wholly reserved, they stay listed as such.
  for (const c of picked) await expect(table.locator('tbody tr', { hasText: c.serialization })).toContainText('All reserved');
});
