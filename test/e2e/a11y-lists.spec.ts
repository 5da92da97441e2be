// Issue 19 item 3: each virtualized list is one Tab stop, and Up/Down, PageUp/PageDown, Home/End walk
// the whole list with the focused row kept drawn while it scrolls (focus never dropped). Keyboard
// only: controls are focused and moved with keys, never clicked.
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';

/** The aria-rowindex of the focused row of `table` (null when focus is not on one of its rows or in one). */
async function focusedRowIndex(page: Page, table: Locator): Promise<number | null> {
  return table.evaluate((el) => {
    const row = document.activeElement?.closest('[role="row"], tr');
    return row && el.contains(row) ? Number(row.getAttribute('aria-rowindex')) : null;
  });
}

/** How many of `table`'s body elements are in the Tab order. */
async function tabStops(table: Locator): Promise<number> {
  return table.evaluate(
    (el) =>
      [...el.querySelectorAll<HTMLElement>('.table-scroll *, tbody *')].filter(
        (node) => node.tabIndex >= 0 && !(node as HTMLButtonElement).disabled && node.getClientRects().length > 0,
      ).length,
  );
}

async function walk(page: Page, table: Locator, total: number) {
  const step = async (key: string) => {
    await page.keyboard.press(key);
    const index = await focusedRowIndex(page, table);
    expect(index, `focus after ${key}`).not.toBeNull();
    return index!;
  };
  expect(await step('ArrowDown')).toBe(3);
  expect(await step('ArrowUp')).toBe(2);
  let last = 2;
  // Page by page, well past the rows first drawn: focus stays on a row, further down each time (or the last).
  for (let i = 0; i < 6; i++) {
    const index = await step('PageDown');
    expect(index === total + 1 || index > last, `row ${index} after row ${last}`).toBe(true);
    last = index;
  }
  expect(await step('End')).toBe(total + 1);
  await expect(table.locator(`[aria-rowindex="${total + 1}"]`)).not.toContainText('Loading…');
  const up = await step('PageUp');
  expect(up).toBeLessThan(total + 1);
  expect(await step('Home')).toBe(2);
}

test('projects and retirements: one Tab stop, walked with arrows, pages, Home and End', async ({ app }) => {
  const projects = app.getByRole('table', { name: 'Projects' });
  await expect(projects.locator('[role="row"][aria-rowindex="2"]')).toBeVisible();
  // Tab from the search field's toolbar lands on the first row; one more Tab leaves the list.
  expect(await tabStops(projects)).toBe(1);
  const total = Number(await app.evaluate(() => document.documentElement.dataset.projectsTotal));
  await projects.locator('[role="row"][aria-rowindex="2"]').focus();
  await walk(app, projects, total);
  // Enter opens the focused project.
  await app.keyboard.press('ArrowDown');
  const name = (await projects.locator('[role="row"][aria-rowindex="3"] .cell-primary').textContent())!;
  await app.keyboard.press('Enter');
  await expect(app.getByRole('heading', { level: 1, name })).toBeFocused();
  await app.keyboard.press('Escape');
  await expect(projects.locator('[role="row"][aria-rowindex="3"]')).toBeFocused();

  // Retirements: a real table, the row a Tab stop with its checkbox and name only.
  await app.keyboard.press('Control+3');
  const retirements = app.getByRole('table', { name: 'Retirements' });
  await expect(retirements.locator('tr[aria-rowindex="2"][data-retirement-id]')).toBeVisible();
  expect(await tabStops(retirements)).toBe(3);
  const retirementTotal = Number(await app.evaluate(() => document.documentElement.dataset.retirementsTotal));
  await retirements.locator('tr[aria-rowindex="2"]').focus();
  await walk(app, retirements, retirementTotal);
  // Enter opens the focused retirement's details (focus moves into them).
  await app.keyboard.press('Enter');
  await expect(app.getByRole('complementary', { name: 'Retirement details' }).getByRole('heading', { name: 'Retirement' })).toBeFocused();
});
