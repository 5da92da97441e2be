// Issue 15 item 13: at 1024 px the sidebar collapses and the lists keep their important columns,
// never clipping a date or an amount (a clipped text shows an ellipsis and carries its full value
// for hover); at 1440 px no column is cut off.
import type { Page } from '@playwright/test';
import { expect, screenshotBothThemes, test } from './fixtures';
import { waitForRowsInView } from './helpers';

interface CellFit {
  text: string;
  clipped: boolean;
  title: string | null;
  /** A date or an amount: must never be clipped. */
  essential: boolean;
}

/** How each drawn cell of a table fits (cells whose content is wider than their box are clipped). */
async function cellFits(page: Page, tableName: string): Promise<{ cells: CellFit[]; overflowsTable: boolean }> {
  return page.getByRole('table', { name: tableName }).evaluate((table) => {
    const cells = [...table.querySelectorAll<HTMLElement>('td, [role="cell"]')].filter((c) => c.offsetParent !== null);
    const fits = cells.map((cell) => {
      const text = (cell.innerText || '').trim();
      // A clipped child (a project name button, a secondary line) counts for its cell.
      // Its text measured against its box (table cells report no scroll width of their own).
      const boxes = [cell, ...cell.querySelectorAll<HTMLElement>('*')].filter((b) => getComputedStyle(b).overflow !== 'visible');
      const clipped = boxes.some((b) => {
        const range = document.createRange();
        range.selectNodeContents(b);
        const style = getComputedStyle(b);
        const inner = b.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        return range.getBoundingClientRect().width > inner + 1;
      });
      const title = cell.getAttribute('title') ?? cell.querySelector('[title]')?.getAttribute('title') ?? null;
      const essential = /\d t$|\d{4}, \d|^[A-Z][a-z]{2} \d{1,2}, \d{4}/.test(text) || cell.classList.contains('numeric');
      return { text, clipped, title, essential };
    });
    const box = table.closest('.table-wrap, .table-projects, .table-inventory') ?? table;
    return { cells: fits, overflowsTable: box.scrollWidth > box.clientWidth + 1 };
  });
}

function expectFits(result: { cells: CellFit[]; overflowsTable: boolean }, where: string) {
  expect(result.cells.length, `${where}: cells drawn`).toBeGreaterThan(0);
  for (const cell of result.cells) {
    if (cell.essential) expect(cell.clipped, `${where}: "${cell.text}" is clipped`).toBe(false);
    if (cell.clipped) expect(cell.title, `${where}: clipped "${cell.text}" has its full value on hover`).toBeTruthy();
  }
}

test('at 1024 px the sidebar collapses and no date or amount is clipped; at 1440 px nothing is cut off', async ({ app }) => {
  for (const width of [1024, 1440]) {
    await app.setViewportSize({ width, height: 800 });
    const sidebar = app.locator('.sidebar');
    const sidebarWidth = (await sidebar.boundingBox())!.width;
    if (width === 1024) expect(sidebarWidth).toBeLessThan(100);
    else expect(sidebarWidth).toBeGreaterThan(200);
    // Collapsed or not, the active registry is named: in the rail by its initial, drawn inside the
    // rail, its whole text kept for screen readers and as the tooltip.
    const activeRegistry = app.getByRole('region', { name: 'Active registry' });
    await expect(activeRegistry).toContainText('Embedded demo registry');
    await expect(activeRegistry).toHaveAttribute('title', 'Registry: Embedded demo registry, Embedded on this computer (demo data)');
    const cutOff = await activeRegistry.evaluate((card) => card.scrollWidth > card.clientWidth + 1);
    expect(cutOff, 'the active registry shows nothing wider than itself').toBe(false);
    // Collapsed or not, each screen is reachable by its name.
    await expect(app.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /^Retirements/ })).toBeVisible();

    await app.keyboard.press('Control+1');
    await expect(app.getByRole('table', { name: 'Projects' }).locator('.table-scroll [role="row"]').first()).toBeVisible();
    const projects = await cellFits(app, 'Projects');
    expectFits(projects, `projects at ${width}`);
    expect(projects.overflowsTable, `projects at ${width}: a column is cut off`).toBe(false);
    await screenshotBothThemes(app, `issue-15-widths-projects-${width}`);

    await app.keyboard.press('Control+2');
    await expect(app.getByRole('table', { name: 'Buffer credits' }).locator('.table-scroll [role="row"]').first()).toBeVisible();
    const credits = await cellFits(app, 'Buffer credits');
    expectFits(credits, `inventory at ${width}`);
    expect(credits.overflowsTable, `inventory at ${width}: a column is cut off`).toBe(false);
    await screenshotBothThemes(app, `issue-15-widths-inventory-${width}`);

    await app.keyboard.press('Control+3');
    await waitForRowsInView(app, 'Retirements');
    const retirements = await cellFits(app, 'Retirements');
    expectFits(retirements, `retirements at ${width}`);
    expect(retirements.overflowsTable, `retirements at ${width}: a column is cut off`).toBe(false);
    await screenshotBothThemes(app, `issue-15-widths-retirements-${width}`);

    await app.keyboard.press('Control+4');
    await expect(app.getByRole('table', { name: 'Warehouse credits' })).toBeVisible();
    const warehouse = await cellFits(app, 'Warehouse credits');
    expectFits(warehouse, `warehouse at ${width}`);
    expect(warehouse.overflowsTable, `warehouse at ${width}: a column is cut off`).toBe(false);
    await screenshotBothThemes(app, `issue-15-widths-warehouse-${width}`);
  }
});
