// The registry accounts' inventories: a virtualized credit list per account, searched as you type,
// filtered by vintage and type, sorted from the column headers; a project name opens the project;
// the CSV export holds exactly the rows shown.
import type { Page } from '@playwright/test';
import { csvRecords } from './csv';
import { expect, screenshotBothThemes, test } from './fixtures';
import { downloadText, optionLabels } from './helpers';

interface ShownCredit {
  project: string;
  projectNum: string;
  serialization: string;
  vintage: string;
  type: string;
  amount: number;
}

/** The credit rows the virtualized table has drawn, top to bottom. */
async function shownCredits(page: Page, account = 'Buffer'): Promise<ShownCredit[]> {
  return page
    .getByRole('table', { name: `${account} credits` })
    .locator('.table-scroll [role="row"]')
    .evaluateAll((rows) =>
      rows
        .map((row) => {
          const cells = [...row.querySelectorAll('[role="cell"]')].map((c) => c.textContent ?? '');
          const top = Number(/translateY\((\d+(?:\.\d+)?)px\)/.exec((row as HTMLElement).style.transform)?.[1] ?? 0);
          return {
            top,
            project: row.querySelector('button')?.textContent ?? '',
            projectNum: (row.querySelector('.cell-secondary')?.textContent ?? '').replace(/^No\. /, ''),
            serialization: cells[1] ?? '',
            vintage: cells[2] ?? '',
            type: cells[3] ?? '',
            amount: Number((cells[4] ?? '').replace(/[^\d.-]/g, '')),
          };
        })
        .filter((r) => r.serialization !== '')
        .sort((a, b) => a.top - b.top)
        .map(({ top: _top, ...rest }) => rest),
    );
}

/** What the list last announced (data attributes the screen sets once a list's first rows are drawn). */
async function listState(page: Page): Promise<{ account: string; query: string; total: number; lowerBound: boolean; generation: number }> {
  return page.evaluate(() => {
    const d = document.documentElement.dataset;
    return {
      account: d.inventoryAccount ?? '',
      query: d.inventoryQuery ?? '',
      total: Number(d.inventoryTotal),
      lowerBound: d.inventoryTotalIsLowerBound === 'true',
      generation: Number(d.inventoryGeneration ?? -1),
    };
  });
}

/** Waits until a list newer than `generation` has announced its first rows. */
async function waitForListAfter(page: Page, generation: number): Promise<void> {
  await page.waitForFunction((g) => Number(document.documentElement.dataset.inventoryGeneration ?? -1) > g, generation);
}

/** Opens the Inventories screen and waits for the buffer account's first rows. */
async function openInventories(page: Page): Promise<void> {
  await page.keyboard.press('Control+2');
  await expect(page.getByRole('heading', { level: 1, name: 'Inventories' })).toBeVisible();
  await page.waitForFunction(
    () => document.documentElement.dataset.inventoryAccount === 'buffer' && document.documentElement.dataset.inventoryTotal !== undefined,
  );
}

const countText = (n: number, match = false) => new RegExp(`^${n.toLocaleString('en-US')} credits?${match ? ' match' : ''}$`);

test('search, filter and sort an account’s credits, then open a credit’s project', async ({ app }) => {
  await openInventories(app);
  const table = app.getByRole('table', { name: 'Buffer credits' });
  const all = await listState(app);
  expect(all.total).toBeGreaterThan(100);
  expect(all.lowerBound).toBe(false);
  await expect(app.getByText(countText(all.total))).toBeVisible();
  // Virtualized: far fewer rows drawn than the account holds.
  const first = await shownCredits(app);
  expect(first.length).toBeGreaterThan(5);
  expect(await table.locator('.table-scroll [role="row"]').count()).toBeLessThan(all.total);
  // Project order by default.
  await expect(table.getByRole('columnheader', { name: 'Project', exact: true })).toHaveAttribute('aria-sort', 'ascending');

  // Search by a word of a project's name: only that project's credits (or others sharing the word).
  const search = app.getByRole('searchbox', { name: 'Search credits' });
  const word = first[0]!.project.split(/\s+/).sort((a, b) => b.length - a.length)[0]!;
  let generation = (await listState(app)).generation;
  await search.fill(word);
  await waitForListAfter(app, generation);
  const byWord = await listState(app);
  expect(byWord.query).toBe(word);
  expect(byWord.total).toBeGreaterThan(0);
  expect(byWord.total).toBeLessThan(all.total);
  await expect(app.getByText(countText(byWord.total, true))).toBeVisible();
  const wordRows = await shownCredits(app);
  expect(wordRows.every((r) => r.project.toLowerCase().includes(word.toLowerCase()))).toBe(true);

  // Search by a serialization prefix (as a document would quote it, in any case).
  const serial = first[0]!.serialization;
  generation = byWord.generation;
  await search.fill(serial.toLowerCase());
  await waitForListAfter(app, generation);
  const bySerial = await shownCredits(app);
  expect(bySerial.map((r) => r.serialization)).toContain(serial);
  expect(bySerial.every((r) => r.serialization.startsWith(serial))).toBe(true);

  // Clear the search; filter by vintage: every row is of that vintage, and the count is the one the
  // option promised.
  generation = (await listState(app)).generation;
  await search.fill('');
  await waitForListAfter(app, generation);
  const vintage = app.getByRole('combobox', { name: 'Vintage', exact: true });
  // The options' counts are read apart from the list: until they follow the cleared search they still
  // count the serialization's one credit, so wait for them rather than read them once.
  const countedOptions = async () =>
    (await optionLabels(vintage)).map((label) => ({ label, count: Number(/\(([\d,]+)\)$/.exec(label)?.[1]?.replace(/,/g, '')) }));
  await expect.poll(async () => (await countedOptions()).some((o) => o.count > 3 && o.count < all.total)).toBe(true);
  const option = (await countedOptions()).find((o) => o.count > 3 && o.count < all.total)!;
  generation = (await listState(app)).generation;
  await vintage.selectOption({ label: option.label });
  await waitForListAfter(app, generation);
  await expect(app.getByText(countText(option.count, true))).toBeVisible();
  const year = option.label.slice(0, 4);
  const filtered = await shownCredits(app);
  expect(filtered.length).toBeGreaterThan(0);
  expect(filtered.every((r) => r.vintage === year)).toBe(true);

  // Sort by amount from its header: largest first, then a second click reverses.
  const amount = table.getByRole('columnheader', { name: 'Amount', exact: true });
  generation = (await listState(app)).generation;
  await amount.getByRole('button').click();
  await waitForListAfter(app, generation);
  await expect(amount).toHaveAttribute('aria-sort', 'descending');
  await expect(table.locator('[role="columnheader"][aria-sort]')).toHaveCount(1);
  const largestFirst = (await shownCredits(app)).map((r) => r.amount);
  expect(largestFirst.length).toBeGreaterThan(1);
  expect(largestFirst).toEqual([...largestFirst].sort((a, b) => b - a));
  generation = (await listState(app)).generation;
  await amount.getByRole('button').click();
  await waitForListAfter(app, generation);
  await expect(amount).toHaveAttribute('aria-sort', 'ascending');
  const smallestFirst = (await shownCredits(app)).map((r) => r.amount);
  expect(smallestFirst).toEqual([...smallestFirst].sort((a, b) => a - b));
  expect((await shownCredits(app)).every((r) => r.vintage === year)).toBe(true);
  await screenshotBothThemes(app, 'inventories-list');

  // Another account has its own list; coming back finds the buffer's search as it was.
  generation = (await listState(app)).generation;
  await app.getByRole('tab', { name: 'Organization' }).click();
  await waitForListAfter(app, generation);
  expect((await listState(app)).account).toBe('organization');
  await expect(app.getByRole('table', { name: 'Organization credits' }).or(app.getByText(/holds no credits/))).toBeVisible();
  generation = (await listState(app)).generation;
  await app.getByRole('tab', { name: 'Buffer' }).click();
  await waitForListAfter(app, generation);
  await expect(vintage).toHaveValue(year);
  await expect(amount).toHaveAttribute('aria-sort', 'ascending');

  // A project name opens the project.
  const [credit] = await shownCredits(app);
  await table.getByRole('button', { name: credit!.project, exact: true }).first().click();
  await expect(app.getByRole('heading', { level: 1, name: credit!.project })).toBeVisible();
  await expect(app.getByRole('region', { name: 'Credits' })).toBeVisible();
});

test('export an account’s filtered credits as CSV with exactly the rows shown', async ({ app }) => {
  await openInventories(app);
  const all = await listState(app);
  // One project's credits of one type: few enough to be drawn at once.
  const [first] = await shownCredits(app);
  let generation = all.generation;
  await app.getByRole('searchbox', { name: 'Search credits' }).fill(first!.projectNum);
  await waitForListAfter(app, generation);
  const type = app.getByRole('combobox', { name: 'Type', exact: true });
  // The same words as the account's totals above and the warehouse: "Ex-post", "Ex-ante".
  expect(['Ex-post', 'Ex-ante']).toContain(first!.type);
  for (const label of await optionLabels(type)) expect(label).toMatch(/^Ex-(post|ante) \(\d+\)$/);
  generation = (await listState(app)).generation;
  await type.selectOption({ value: first!.type === 'Ex-ante' ? 'exAnte' : 'exPost' });
  await waitForListAfter(app, generation);
  const state = await listState(app);
  expect(state.total).toBeGreaterThan(0);
  expect(state.total).toBeLessThan(all.total);
  const shown = await shownCredits(app);
  expect(shown).toHaveLength(state.total);

  const { filename, text } = await downloadText(app, app.getByRole('button', { name: 'Export CSV' }));
  expect(filename).toMatch(/^inventory-buffer-\d{4}-\d{2}-\d{2}\.csv$/);
  const records = csvRecords(text);
  expect(
    records.map((r) => ({
      serialization: r.Serialization,
      vintage: r.Vintage,
      projectNum: r['Project number'],
      amount: Number(r['Amount (tCO2e)']),
    })),
  ).toEqual(shown.map((r) => ({ serialization: r.serialization, vintage: r.vintage, projectNum: r.projectNum, amount: r.amount })));
  expect(records.every((r) => r.Type === (first!.type === 'Ex-ante' ? 'exAnte' : 'exPost'))).toBe(true);
});
