// Issue 15 item 8: facet counts respect the search and the other filters (so a value's count is the
// number of rows it shows), "Clear filters" clears the search too, the retirements' vintage filter is
// a choice of the vintages present, and every count shown matches the rows shown.
import type { Locator, Page } from '@playwright/test';
import { expect, screenshotBothThemes, test } from './fixtures';
import { optionLabels, projectsGeneration, projectsTotal, waitForProjectsAfter } from './helpers';

/** [value, count] of a filter's first option with a count above 0 (after "Any …"). */
async function firstCountedOption(select: Locator): Promise<{ value: string; count: number }> {
  await optionLabels(select);
  const options = await select.evaluate((el) =>
    [...(el as HTMLSelectElement).options].slice(1).map((o) => ({ value: o.value, label: o.textContent ?? '' })),
  );
  for (const o of options) {
    const count = Number(/\(([\d,]+)\)$/.exec(o.label)![1]!.replace(/,/g, ''));
    if (count > 0) return { value: o.value, count };
  }
  throw new Error('no option with a count');
}

async function countsOf(select: Locator): Promise<number[]> {
  return (await optionLabels(select)).map((l) => Number(/\(([\d,]+)\)$/.exec(l)![1]!.replace(/,/g, '')));
}

async function chooseProjects(page: Page, act: () => Promise<unknown>): Promise<number> {
  const generation = await projectsGeneration(page);
  await act();
  await waitForProjectsAfter(page, generation);
  return projectsTotal(page);
}

test('facet counts follow the other filters and the search, and match the rows listed', async ({ app }) => {
  // Projects: after a status filter, a country's count is the number of projects it lists.
  const status = app.getByRole('combobox', { name: 'Status' });
  const registered = await firstCountedOption(status);
  const afterStatus = await chooseProjects(app, () => status.selectOption(registered.value));
  expect(afterStatus).toBe(registered.count);
  const country = app.getByRole('combobox', { name: 'Country' });
  await expect.poll(async () => (await countsOf(country)).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(afterStatus);
  const chosen = await firstCountedOption(country);
  expect(await chooseProjects(app, () => country.selectOption(chosen.value))).toBe(chosen.count);
  // The status counts now follow the country: the chosen status's count is the list's.
  await expect
    .poll(() => status.locator(`option[value="${registered.value}"]`).textContent())
    .toMatch(new RegExp(`\\(${chosen.count.toLocaleString('en-US')}\\)$`));

  // A search narrows the counts too; "Clear filters" clears the search with the filters.
  const search = app.getByRole('searchbox', { name: 'Search projects' });
  const narrowed = await chooseProjects(app, () => search.fill('forest'));
  await expect.poll(async () => (await countsOf(country)).every((n) => n <= Math.max(narrowed, chosen.count))).toBe(true);
  await chooseProjects(app, () => app.getByRole('button', { name: 'Clear filters' }).click());
  await expect(search).toHaveValue('');
  await expect(status).toHaveValue('');
  await expect(country).toHaveValue('');

  // Inventories: with a search typed, the vintage counts add up to the credits listed.
  await app.keyboard.press('Control+2');
  const inventorySearch = app.getByRole('searchbox', { name: 'Search credits' });
  const firstProject = app.getByRole('table', { name: 'Buffer credits' }).locator('.inventory-project').first();
  const word = (await firstProject.textContent())!.split(' ')[0]!;
  await inventorySearch.fill(word);
  await expect(app.locator('.inventory-count')).toContainText('match');
  const vintage = app.getByRole('combobox', { name: 'Vintage' });
  const listed = async () => Number((await app.locator('.inventory-count').textContent())!.replace(/[^\d]/g, ''));
  await expect.poll(async () => (await countsOf(vintage)).reduce((a, b) => a + b, 0)).toBe(await listed());
  await app.getByRole('button', { name: 'Clear filters' }).click();
  await expect(inventorySearch).toHaveValue('');

  // Retirements: the vintage is a choice of the vintages present, counted under the claim filter.
  await app.keyboard.press('Control+3');
  await app.getByRole('combobox', { name: 'Claim' }).selectOption('claimed');
  const retirementVintage = app.getByRole('combobox', { name: 'Vintage' });
  const year = await firstCountedOption(retirementVintage);
  expect(year.value).toMatch(/^\d{4}$/);
  await retirementVintage.selectOption(year.value);
  await expect.poll(() => app.evaluate(() => Number(document.documentElement.dataset.retirementsTotal))).toBe(year.count);
  await expect(app.getByRole('table', { name: 'Retirements' })).toHaveAttribute('aria-rowcount', String(year.count + 1));
  await screenshotBothThemes(app, 'issue-15-filters');
  await app.getByRole('button', { name: 'Clear filters' }).click();
  await expect(retirementVintage).toHaveValue('');

  // Organizations: the count is of the rows shown.
  await app.keyboard.press('Control+5');
  const table = app.getByRole('table', { name: 'Organizations' });
  await expect(table.locator('tbody tr').first()).toBeVisible();
  const all = await table.locator('tbody tr').count();
  await expect(app.getByText(`${all} organizations`, { exact: true })).toBeVisible();
  const first = (await table.locator('tbody tr').first().getByRole('button').textContent())!;
  await app.getByRole('searchbox', { name: 'Filter organizations' }).fill(first);
  const shown = await table.locator('tbody tr').count();
  await expect(app.getByText(`${shown} of ${all} organizations match`, { exact: true })).toBeVisible();
});
