// Browsing projects: search as you type, filters, a project's page with its credits, and a CSV
// export of a filtered list that matches the rows on screen.
import { csvRecords } from './csv';
import { expect, screenshotBothThemes, test } from './fixtures';
import { downloadText, optionLabels, projectsGeneration, projectsTotal, shownProjectRows, waitForProjectsAfter } from './helpers';

test('search and filter projects, then open one and its credits', async ({ app }) => {
  const allTotal = await projectsTotal(app);
  const [first] = await shownProjectRows(app);
  expect(first).toBeDefined();
  // Search for one distinctive word of the first project's name.
  const word = first!.name.split(/\s+/).sort((a, b) => b.length - a.length)[0]!;
  await app.getByRole('searchbox', { name: 'Search projects' }).fill(word);
  await app.waitForFunction((w) => document.documentElement.dataset.projectsQuery === w, word);
  const searchTotal = await projectsTotal(app);
  expect(searchTotal).toBeGreaterThan(0);
  expect(searchTotal).toBeLessThan(allTotal);
  await expect(app.getByRole('row', { name: new RegExp(first!.name) }).first()).toBeVisible();

  // Clear the search, then filter by the first project's country: every row is from there, and the
  // total is the count the filter option promised.
  await app.getByRole('searchbox', { name: 'Search projects' }).fill('');
  await app.waitForFunction(() => document.documentElement.dataset.projectsQuery === '');
  const country = app.getByRole('combobox', { name: 'Country', exact: true });
  // The options' counts are read apart from the list: until they follow the cleared search they
  // still count the searched projects only. Each project has one country, so they follow it once
  // they add up to the whole list.
  const countOf = (label: string) => Number(/\((\d+)\)$/.exec(label)?.[1]);
  await expect.poll(async () => (await optionLabels(country)).reduce((sum, label) => sum + countOf(label), 0)).toBe(allTotal);
  const countryOptions = await optionLabels(country);
  const optionLabel = countryOptions.find((label) => label.startsWith(`${first!.country} (`));
  expect(optionLabel, `a Country option for ${first!.country} among ${countryOptions.join(', ')}`).toBeDefined();
  const promised = countOf(optionLabel!);
  await country.selectOption({ label: optionLabel! });
  await expect(app.getByText(new RegExp(`^${promised} projects?$`))).toBeVisible();
  const filtered = await shownProjectRows(app);
  expect(filtered.length).toBe(Math.min(promised, filtered.length));
  expect(filtered.every((r) => r.country === first!.country)).toBe(true);

  // Open the project: its page shows every section and the credits by vintage.
  await app
    .getByRole('row', { name: new RegExp(first!.name) })
    .first()
    .click();
  await expect(app.getByRole('heading', { level: 1, name: first!.name })).toBeVisible();
  for (const section of [
    'Overview',
    'Key facts',
    'Location',
    'Proponents and validators',
    'Documents',
    'Benefits',
    'Timeline',
    'Credits',
  ]) {
    await expect(app.getByRole('region', { name: section })).toBeVisible();
  }
  const credits = app.getByRole('region', { name: 'Credits' });
  await expect(credits.getByRole('img', { name: /Credits by vintage/ })).toBeVisible();
  await expect(credits.getByRole('region', { name: /^Vintage \d{4}$/ }).first()).toBeVisible();
  await expect(credits.getByRole('table').first().getByRole('columnheader', { name: 'Monitoring period' })).toBeVisible();
  await screenshotBothThemes(app, 'project-page');
  await credits.scrollIntoViewIfNeeded();
  await screenshotBothThemes(app, 'project-credits');

  // Back to the list: the filter is still applied.
  await app.getByRole('button', { name: '← All projects' }).click();
  await expect(app.getByText(new RegExp(`^${promised} projects?$`))).toBeVisible();
});

test('export a filtered project list as CSV with exactly the rows shown', async ({ app }) => {
  // The sector with the fewest projects, so every row of the filtered list is on screen at once.
  const sector = app.getByRole('combobox', { name: 'Sector', exact: true });
  const options = await optionLabels(sector);
  const smallest = options.map((label) => ({ label, count: Number(/\((\d+)\)$/.exec(label)?.[1]) })).sort((a, b) => a.count - b.count)[0]!;
  await sector.selectOption({ label: smallest.label });
  await expect(app.getByText(new RegExp(`^${smallest.count} projects?$`))).toBeVisible();
  const shown = await shownProjectRows(app);
  expect(shown).toHaveLength(smallest.count);

  const { filename, text } = await downloadText(app, app.getByRole('button', { name: 'Export CSV' }));
  expect(filename).toMatch(/\.csv$/);
  const records = csvRecords(text);
  expect(records.map((r) => ({ num: r.Number, name: r.Name }))).toEqual(shown.map((r) => ({ num: r.num, name: r.name })));
});

/** SQLite's NOCASE order (ASCII letters folded, then code units), which the desk sorts names by. */
function noCaseOrder(a: string, b: string): number {
  const fold = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
  return fold(a) < fold(b) ? -1 : fold(a) > fold(b) ? 1 : 0;
}

test('sort projects from the column headers, by keyboard too, and keep the order across screens and a reload', async ({ app }) => {
  const table = app.getByRole('table', { name: 'Projects' });
  const header = (name: string) => table.getByRole('columnheader', { name, exact: true });
  const sortBy = async (name: string) => {
    const generation = await projectsGeneration(app);
    await header(name).getByRole('button').click();
    await waitForProjectsAfter(app, generation);
  };
  // Project number order by default.
  await expect(header('No.')).toHaveAttribute('aria-sort', 'ascending');
  await expect(table.locator('[role="columnheader"][aria-sort]')).toHaveCount(1);

  // Name: A to Z, then a second click reverses.
  await sortBy('Project');
  await expect(header('Project')).toHaveAttribute('aria-sort', 'ascending');
  await expect(header('No.')).not.toHaveAttribute('aria-sort');
  const aToZ = (await shownProjectRows(app)).map((r) => r.name);
  expect(aToZ.length).toBeGreaterThan(5);
  expect(aToZ).toEqual([...aToZ].sort(noCaseOrder));
  await sortBy('Project');
  await expect(header('Project')).toHaveAttribute('aria-sort', 'descending');
  const zToA = (await shownProjectRows(app)).map((r) => r.name);
  expect(zToA).toEqual([...zToA].sort(noCaseOrder).reverse());

  // The keyboard: the header's button takes Enter and Space; dates start newest first.
  const start = header('Start').getByRole('button');
  let generation = await projectsGeneration(app);
  await start.focus();
  await app.keyboard.press('Enter');
  await waitForProjectsAfter(app, generation);
  await expect(header('Start')).toHaveAttribute('aria-sort', 'descending');
  const newestFirst = (await shownProjectRows(app)).map((r) => Date.parse(r.start));
  expect(newestFirst.every((t) => !Number.isNaN(t))).toBe(true);
  expect(newestFirst).toEqual([...newestFirst].sort((a, b) => b - a));
  generation = await projectsGeneration(app);
  await app.keyboard.press('Space');
  await waitForProjectsAfter(app, generation);
  await expect(header('Start')).toHaveAttribute('aria-sort', 'ascending');
  await expect(start).toBeFocused();
  await screenshotBothThemes(app, 'projects-sorted');

  // Typing a search from the default order sorts by relevance; a column header leaves it; the
  // toggle goes back to it; clearing the search leaves relevance for the default order.
  const relevance = app.getByRole('button', { name: 'Sort by relevance' });
  await expect(relevance).toBeDisabled();
  await sortBy('No.');
  await expect(header('No.')).toHaveAttribute('aria-sort', 'ascending');
  const word = aToZ[0]!.split(/\s+/).sort((a, b) => b.length - a.length)[0]!;
  await app.getByRole('searchbox', { name: 'Search projects' }).fill(word);
  await app.waitForFunction((w) => document.documentElement.dataset.projectsQuery === w, word);
  await expect(relevance).toHaveAttribute('aria-pressed', 'true');
  await expect(table.locator('[role="columnheader"][aria-sort]')).toHaveCount(0);
  await sortBy('Country');
  await expect(header('Country')).toHaveAttribute('aria-sort', 'ascending');
  await expect(relevance).toHaveAttribute('aria-pressed', 'false');
  await relevance.click();
  await expect(relevance).toHaveAttribute('aria-pressed', 'true');
  await expect(table.locator('[role="columnheader"][aria-sort]')).toHaveCount(0);
  await app.getByRole('searchbox', { name: 'Search projects' }).fill('');
  await app.waitForFunction(() => document.documentElement.dataset.projectsQuery === '');
  await expect(header('No.')).toHaveAttribute('aria-sort', 'ascending');
  await expect(relevance).toBeDisabled();

  // The chosen order survives another screen, a project's page and a reload of the window.
  await sortBy('Status');
  await sortBy('Status');
  await expect(header('Status')).toHaveAttribute('aria-sort', 'descending');
  const chosen = (await shownProjectRows(app)).slice(0, 5);
  await app.keyboard.press('Control+3');
  await expect(app.getByRole('heading', { level: 1, name: 'Retirements' })).toBeVisible();
  await app.keyboard.press('Control+1');
  await expect(header('Status')).toHaveAttribute('aria-sort', 'descending');
  expect((await shownProjectRows(app)).slice(0, 5)).toEqual(chosen);
  await app
    .getByRole('row', { name: new RegExp(chosen[0]!.name) })
    .first()
    .click();
  await expect(app.getByRole('heading', { level: 1, name: chosen[0]!.name })).toBeVisible();
  await app.getByRole('button', { name: '← All projects' }).click();
  await expect(header('Status')).toHaveAttribute('aria-sort', 'descending');
  await app.reload();
  await expect(header('Status')).toHaveAttribute('aria-sort', 'descending');
  await app.waitForFunction(() => document.documentElement.dataset.projectsGeneration !== undefined);
  expect((await shownProjectRows(app)).slice(0, 5)).toEqual(chosen);
});
