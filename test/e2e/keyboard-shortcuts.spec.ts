// Issue 15 item 15: "?" shows the shortcuts; arrow keys move between rows; Escape leaves a detail
// page; shift-click range select and select-all; bulk certificates as one PDF (a page each) or a ZIP.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { unzipSync } from 'fflate';
import { expect, screenshotBothThemes, test } from './fixtures';
import { shownRetirementRows, waitForRowsInView } from './helpers';

test('shortcuts, arrow keys, Escape, range and select-all, combined PDF and ZIP certificates', async ({ app }) => {
  // "?" shows the shortcuts; Escape closes them.
  await app.locator('body').press('?');
  const help = app.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toBeVisible();
  await expect(help).toContainText('Move to the row above or below');
  await screenshotBothThemes(app, 'issue-15-shortcuts');
  await app.keyboard.press('Escape');
  await expect(help).toBeHidden();

  // Arrow keys move between the project rows; Enter opens one, Escape leaves its page.
  const projects = app.getByRole('table', { name: 'Projects' });
  const firstRow = projects.locator('.table-scroll [role="row"][aria-rowindex="2"]');
  await firstRow.focus();
  await app.keyboard.press('ArrowDown');
  await expect(projects.locator('.table-scroll [role="row"][aria-rowindex="3"]')).toBeFocused();
  await app.keyboard.press('ArrowUp');
  await expect(firstRow).toBeFocused();
  await app.keyboard.press('ArrowDown');
  await app.keyboard.press('Enter');
  await expect(app.getByRole('heading', { level: 1, name: 'Projects' })).toBeHidden();
  await app.keyboard.press('Escape');
  await expect(app.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();

  // Retirements: a shift-click range of four claimed ones.
  await app.keyboard.press('Control+3');
  await app.getByRole('combobox', { name: 'Claim' }).selectOption('claimed');
  await waitForRowsInView(app, 'Retirements');
  const table = app.getByRole('table', { name: 'Retirements' });
  const rows = (await shownRetirementRows(app)).slice(0, 5);
  const checkbox = (id: string) => table.locator(`tr[data-retirement-id="${id}"] input[type="checkbox"]`);
  await checkbox(rows[0]!.id).click();
  await checkbox(rows[3]!.id).click({ modifiers: ['Shift'] });
  for (const row of rows.slice(0, 4)) await expect(checkbox(row.id)).toBeChecked();
  await expect(checkbox(rows[4]!.id)).not.toBeChecked();
  // Arrow keys move from checkbox to checkbox.
  await checkbox(rows[0]!.id).focus();
  await app.keyboard.press('ArrowDown');
  await expect(checkbox(rows[1]!.id)).toBeFocused();

  // One combined PDF, a page each.
  await app.getByRole('combobox', { name: 'Save as' }).selectOption('pdf');
  const [pdf] = await Promise.all([app.waitForEvent('download'), app.getByRole('button', { name: 'Download certificates (4)' }).click()]);
  expect(pdf.suggestedFilename()).toMatch(/^retirement-certificates-4-\d{4}-\d{2}-\d{2}\.pdf$/);
  const pdfPath = await pdf.path();
  expect(execFileSync('pdfinfo', [pdfPath], { encoding: 'utf8' })).toMatch(/^Pages:\s+4$/m);
  const text = execFileSync('pdftotext', [pdfPath, '-'], { encoding: 'utf8' });
  for (const row of rows.slice(0, 4)) expect(text).toContain(row.id);
  await expect(app.getByRole('button', { name: /^Download certificates/ })).toHaveCount(0);

  // A ZIP of the separate PDFs.
  await checkbox(rows[1]!.id).click();
  await checkbox(rows[2]!.id).click({ modifiers: ['Shift'] });
  await app.getByRole('combobox', { name: 'Save as' }).selectOption('zip');
  const [zip] = await Promise.all([app.waitForEvent('download'), app.getByRole('button', { name: 'Download certificates (2)' }).click()]);
  const entries = unzipSync(new Uint8Array(readFileSync(await zip.path())));
  expect(Object.keys(entries).sort()).toEqual([rows[1]!.id, rows[2]!.id].map((id) => `retirement-${id}.pdf`).sort());
  for (const bytes of Object.values(entries)) expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe('%PDF-');

  // Select all: every claimed retirement listed (up to 500); again: none.
  const total = Number(await app.evaluate(() => document.documentElement.dataset.retirementsTotal));
  await table.getByRole('checkbox', { name: 'Select all claimed retirements listed' }).click();
  await expect(app.getByRole('button', { name: `Download certificates (${Math.min(total, 500)})` })).toBeVisible();
  await table.getByRole('checkbox', { name: 'Clear the selection' }).click();
  await expect(app.getByRole('button', { name: /^Download certificates/ })).toHaveCount(0);

  // Escape closes a retirement's details.
  await table.locator(`tr[data-retirement-id="${rows[0]!.id}"] td`).nth(1).click();
  const details = app.getByRole('complementary', { name: 'Retirement details' });
  await expect(details).toBeVisible();
  await app.locator('body').press('Escape');
  await expect(details).toBeHidden();
});
