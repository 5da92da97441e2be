// Browsing projects: search as you type, filters, a project's page with its credits, and a CSV
// export of a filtered list that matches the rows on screen.
import { csvRecords } from './csv';
import { expect, screenshotBothThemes, test } from './fixtures';
import { downloadText, optionLabels, projectsTotal, shownProjectRows } from './helpers';

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
  const countryOptions = await optionLabels(country);
  const optionLabel = countryOptions.find((label) => label.startsWith(`${first!.country} (`));
  expect(optionLabel, `a Country option for ${first!.country} among ${countryOptions.join(', ')}`).toBeDefined();
  const promised = Number(/\((\d+)\)$/.exec(optionLabel!)?.[1]);
  await country.selectOption({ label: optionLabel! });
  await expect(app.getByText(new RegExp(`^${promised} projects?$`))).toBeVisible();
  const filtered = await shownProjectRows(app);
  expect(filtered.length).toBe(Math.min(promised, filtered.length));
  expect(filtered.every((r) => r.country === first!.country)).toBe(true);

  // Open the project: its page shows every section and the credits by vintage.
  await app.getByRole('row', { name: new RegExp(first!.name) }).first().click();
  await expect(app.getByRole('heading', { level: 1, name: first!.name })).toBeVisible();
  for (const section of ['Overview', 'Key facts', 'Location', 'Proponents and validators', 'Documents', 'Benefits', 'Status history', 'Credits']) {
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
