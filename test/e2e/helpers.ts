// Page helpers shared by the specs: reading the project list as shown, and downloads.
import { readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';

export interface ShownProjectRow {
  num: string;
  name: string;
  country: string;
}

/** The project rows currently rendered in the virtualized table, top to bottom. */
export async function shownProjectRows(page: Page): Promise<ShownProjectRow[]> {
  return page.getByRole('table', { name: 'Projects' }).locator('.table-scroll [role="row"]').evaluateAll((rows) =>
    rows
      .map((row) => {
        const cells = [...row.querySelectorAll('[role="cell"]')].map((c) => c.textContent ?? '');
        const name = row.querySelector('.cell-primary')?.textContent ?? '';
        const top = Number(/translateY\((\d+(?:\.\d+)?)px\)/.exec((row as HTMLElement).style.transform)?.[1] ?? 0);
        return { top, num: cells[0] ?? '', name, country: cells[3] ?? '' };
      })
      .sort((a, b) => a.top - b.top)
      .map(({ num, name, country }) => ({ num, name, country })),
  );
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
