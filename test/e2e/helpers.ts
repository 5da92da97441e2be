// Page helpers shared by the specs: reading the project list as shown, and downloads.
import { readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';

export interface ShownProjectRow {
  num: string;
  name: string;
  country: string;
  /** The start date as shown. */
  start: string;
}

/** The project rows currently rendered in the virtualized table, top to bottom. */
export async function shownProjectRows(page: Page): Promise<ShownProjectRow[]> {
  return page
    .getByRole('table', { name: 'Projects' })
    .locator('.table-scroll [role="row"]')
    .evaluateAll((rows) =>
      rows
        .map((row) => {
          const cells = [...row.querySelectorAll('[role="cell"]')].map((c) => c.textContent ?? '');
          const name = row.querySelector('.cell-primary')?.textContent ?? '';
          const top = Number(/translateY\((\d+(?:\.\d+)?)px\)/.exec((row as HTMLElement).style.transform)?.[1] ?? 0);
          return { top, num: cells[0] ?? '', name, country: cells[3] ?? '', start: cells[8] ?? '' };
        })
        .sort((a, b) => a.top - b.top)
        .map(({ num, name, country, start }) => ({ num, name, country, start })),
    );
}

/** Resolves once the project list has shown the first rows of a search newer than `generation`. */
export async function waitForProjectsAfter(page: Page, generation: number): Promise<void> {
  await page.waitForFunction((g) => Number(document.documentElement.dataset.projectsGeneration) > g, generation);
}

/** The generation of the project list's latest shown search (see waitForProjectsAfter). */
export async function projectsGeneration(page: Page): Promise<number> {
  return Number(await page.evaluate(() => document.documentElement.dataset.projectsGeneration));
}

/** The total the project list announced for its latest search. */
export async function projectsTotal(page: Page): Promise<number> {
  return Number(await page.evaluate(() => document.documentElement.dataset.projectsTotal));
}

/** Clicks `trigger` and returns the text of the file the page downloads. */
export async function downloadText(page: Page, trigger: Locator): Promise<{ filename: string; text: string; path: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), trigger.click()]);
  const path = await download.path();
  return { filename: download.suggestedFilename(), text: readFileSync(path, 'utf8'), path };
}

/** The labels of a filter's options once its values have loaded (the first, "Any …", left out). */
export async function optionLabels(select: Locator): Promise<string[]> {
  await select.locator('option').nth(1).waitFor({ state: 'attached' });
  return select.evaluate((el) => [...(el as HTMLSelectElement).options].slice(1).map((o) => o.textContent ?? ''));
}

/**
 * Whether every row the virtualized `table` shows in its scroll box (top and bottom of the view) has
 * been read, i.e. no "Loading…" placeholder and no spacer is in view. Visible state, for waits.
 */
export async function waitForRowsInView(page: Page, tableName: string): Promise<void> {
  await page.waitForFunction((name) => {
    const table = document.querySelector(`table[aria-label="${name}"]`);
    const box = table?.closest('.virtual-table-scroll');
    if (!table || !box) return false;
    const view = box.getBoundingClientRect();
    const head = table.querySelector('thead')?.getBoundingClientRect().height ?? 0;
    const bottom = Math.min(view.bottom, table.getBoundingClientRect().bottom) - 2;
    const x = view.left + 60;
    return [view.top + head + 2, bottom].every(
      (y) => document.elementFromPoint(x, y)?.closest('tr')?.hasAttribute('data-retirement-id') === true,
    );
  }, tableName);
}

/** Scrolls the virtualized retirement table down a view at a time until `id`'s row is drawn; returns it. */
export async function scrollToRetirement(page: Page, id: string): Promise<Locator> {
  const table = page.getByRole('table', { name: 'Retirements' });
  const row = table.locator(`tr[data-retirement-id="${id}"]`);
  await waitForRowsInView(page, 'Retirements');
  while ((await row.count()) === 0) {
    const moved = await table.evaluate((el) => {
      const box = el.closest('.virtual-table-scroll')!;
      const before = box.scrollTop;
      box.scrollTop = before + box.clientHeight - 60;
      return box.scrollTop > before;
    });
    if (!moved) throw new Error(`retirement ${id} is not in the list`);
    await waitForRowsInView(page, 'Retirements');
  }
  await row.scrollIntoViewIfNeeded();
  return row;
}

export interface ShownRetirementRow {
  /** Position in the whole list, from 0. */
  index: number;
  id: string;
  date: string;
  beneficiary: string;
  amount: number;
  claimed: boolean;
  checked: boolean;
}

/** The retirement rows currently drawn in the virtualized table (read ones only), top to bottom. */
export async function shownRetirementRows(page: Page): Promise<ShownRetirementRow[]> {
  return page
    .getByRole('table', { name: 'Retirements' })
    .locator('tbody tr[data-retirement-id]')
    .evaluateAll((rows) =>
      rows
        .map((row) => {
          const cells = [...row.querySelectorAll('td')];
          return {
            index: Number(row.getAttribute('aria-rowindex')) - 2,
            id: row.getAttribute('data-retirement-id') ?? '',
            date: cells[1]?.textContent ?? '',
            beneficiary: cells[2]?.querySelector('button')?.textContent ?? '',
            amount: Number((cells[5]?.textContent ?? '').replace(/[^\d.]/g, '')),
            claimed: (cells[6]?.textContent ?? '').trim() === 'Claimed',
            checked: (cells[0]?.querySelector('input') as HTMLInputElement | null)?.checked ?? false,
          };
        })
        .sort((a, b) => a.index - b.index),
    );
}

/** Sets the scroll position of the virtualized retirement table and waits for the rows in view. */
export async function scrollRetirementsTo(page: Page, where: 'top' | 'bottom' | number): Promise<void> {
  await page.getByRole('table', { name: 'Retirements' }).evaluate((el, to) => {
    const box = el.closest('.virtual-table-scroll')!;
    box.scrollTop = to === 'top' ? 0 : to === 'bottom' ? box.scrollHeight : to;
  }, where);
  await waitForRowsInView(page, 'Retirements');
}
