// Issue 19 items 6 and 8: the inventory tabs follow the tabs pattern (one Tab stop, arrows between
// tabs), and at 200 % zoom (720 × 450 CSS px) every column of Projects and Inventories can be
// reached and the sidebar is collapsed. Keyboard only: nothing is clicked.
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';

test('inventory tabs: one Tab stop, arrows, Home and End; at 200 % zoom every column can be reached', async ({ app }) => {
  await app.keyboard.press('Control+2');
  const tabs = app.getByRole('tablist', { name: 'Registry accounts' });
  const selected = tabs.getByRole('tab', { selected: true });
  const names = await tabs.getByRole('tab').allTextContents();
  expect(names.length).toBeGreaterThan(1);
  // Only the selected tab is in the Tab order.
  expect(await tabs.getByRole('tab').evaluateAll((els) => els.filter((el) => (el as HTMLElement).tabIndex >= 0).length)).toBe(1);
  await selected.focus();
  await app.keyboard.press('ArrowRight');
  await expect(tabs.getByRole('tab', { name: names[1] })).toBeFocused();
  await expect(tabs.getByRole('tab', { name: names[1] })).toHaveAttribute('aria-selected', 'true');
  await expect(app.getByRole('tabpanel')).toHaveAttribute(
    'aria-labelledby',
    (await tabs.getByRole('tab', { name: names[1] }).getAttribute('id'))!,
  );
  await app.keyboard.press('End');
  await expect(tabs.getByRole('tab', { name: names.at(-1) })).toBeFocused();
  await app.keyboard.press('ArrowRight');
  await expect(tabs.getByRole('tab', { name: names[0] })).toBeFocused();
  await app.keyboard.press('ArrowLeft');
  await expect(tabs.getByRole('tab', { name: names.at(-1) })).toBeFocused();
  await app.keyboard.press('Home');
  await expect(tabs.getByRole('tab', { name: names[0] })).toBeFocused();
  await expect(tabs.getByRole('tab', { name: names[0] })).toHaveAttribute('aria-selected', 'true');
  // Tab leaves the tab list for the panel's content, not the next tab.
  await app.keyboard.press('Tab');
  expect(await tabs.evaluate((el) => el.contains(document.activeElement))).toBe(false);

  // 200 % zoom of a 1440 × 900 window: 720 × 450 CSS px. The sidebar is a rail; every column of the
  // Projects list and an inventory list can be scrolled into view and read.
  await app.setViewportSize({ width: 720, height: 450 });
  expect(await app.locator('.sidebar').evaluate((el) => el.getBoundingClientRect().width)).toBeLessThanOrEqual(80);
  await expectEveryColumnReachable(app, app.getByRole('table', { name: /credits$/ }));
  await app.keyboard.press('Control+1');
  await expectEveryColumnReachable(app, app.getByRole('table', { name: 'Projects' }));
});

/** Each column header of `table` (and the first row's cell under it) can be scrolled into the window and has room. */
async function expectEveryColumnReachable(page: Page, table: Locator) {
  await expect(table.locator('.table-scroll [role="row"]').first()).toBeVisible();
  const headers = table.getByRole('columnheader');
  const count = await headers.count();
  expect(count).toBeGreaterThan(4);
  const unreachable: string[] = [];
  for (let i = 0; i < count; i++) {
    const shown = await table.evaluate((el, index) => {
      const header = el.querySelectorAll<HTMLElement>('[role="columnheader"]')[index]!;
      const cell = el.querySelector('.table-scroll [role="row"]')?.querySelectorAll<HTMLElement>('[role="cell"]')[index];
      header.scrollIntoView({ block: 'nearest', inline: 'nearest' });
      const within = (box: DOMRect) => box.width > 20 && box.left >= 0 && box.right <= window.innerWidth + 1;
      return {
        name: header.textContent ?? '',
        ok: within(header.getBoundingClientRect()) && (!cell || within(cell.getBoundingClientRect())),
      };
    }, i);
    if (!shown.ok) unreachable.push(shown.name);
  }
  expect(unreachable).toEqual([]);
}
