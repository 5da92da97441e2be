// Issue 15 item 11: a project's timeline shows every event the registry publishes (issuances,
// ex-post told from ex-ante, retirements, cancellations), newest first; the estimated mitigations
// show their years; proponent and validator names open the desk's organization page.
import { expect, screenshotBothThemes, test } from './fixtures';
import { waitForRowsInView } from './helpers';

test('the project page: timeline of every event, mitigations by year, organizations open in the desk', async ({ app }) => {
  // A project with a claimed retirement, opened from that retirement.
  await app.keyboard.press('Control+3');
  await app.getByRole('combobox', { name: 'Claim' }).selectOption('claimed');
  await waitForRowsInView(app, 'Retirements');
  const row = app.getByRole('table', { name: 'Retirements' }).locator('tbody tr[data-retirement-id]').first();
  const retirementId = (await row.getAttribute('data-retirement-id'))!;
  const amount = (await row.locator('td').nth(5).textContent())!;
  await row.locator('td').nth(1).click();
  const details = app.getByRole('complementary', { name: 'Retirement details' });
  await details.getByRole('button', { name: /\(No\. / }).click();
  await expect(app.getByRole('button', { name: '← All projects' })).toBeVisible();

  const timeline = app.getByRole('region', { name: 'Timeline' }).getByRole('list', { name: 'Timeline' });
  await expect(timeline.locator('li[data-kind="retirement"]').first()).toBeVisible();
  // Issuances, ex-post told from ex-ante.
  const issuances = timeline.locator('li[data-kind="issuance"]');
  expect(await issuances.count()).toBeGreaterThan(0);
  expect(await timeline.locator('li[data-kind="issuance"][data-credit-type]').count()).toBe(await issuances.count());
  for (const text of await timeline.locator('li[data-kind="issuance"][data-credit-type="exPost"]').allTextContents())
    expect(text).toContain('ex-post');
  for (const text of await timeline.locator('li[data-kind="issuance"][data-credit-type="exAnte"]').allTextContents())
    expect(text).toContain('ex-ante');
  // The retirement we came from is on it, with its amount.
  await expect(timeline.locator('li[data-kind="retirement"]', { hasText: `Retired ${amount}` }).first()).toBeVisible();
  // Dated events newest first.
  const times = await timeline.locator('li time').evaluateAll((els) => els.map((e) => Date.parse(e.getAttribute('datetime')!)));
  expect(times).toEqual([...times].sort((a, b) => b - a));
  // A retirement entry opens the retirement.
  await timeline.locator('li[data-kind="retirement"]').first().getByRole('button', { name: 'Open retirement' }).waitFor();
  // Each is named for its retirement (amount and time), so a screen reader's list of buttons tells them apart.
  const opens = await timeline
    .locator('li[data-kind="retirement"] button')
    .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
  expect(opens.length).toBeGreaterThan(1);
  expect(opens.every((name) => name?.startsWith('Open retirement of '))).toBe(true);

  // Estimated mitigations by year: consecutive years from the crediting period's start.
  const mitigations = app.getByRole('table', { name: 'Estimated annual mitigations' });
  const years = (await mitigations.locator('tbody tr td:first-child').allTextContents()).map(Number);
  expect(years.length).toBeGreaterThan(0);
  years.forEach((year, i) => expect(year).toBe(years[0]! + i));
  await app.getByRole('region', { name: 'Timeline' }).scrollIntoViewIfNeeded();
  await screenshotBothThemes(app, 'issue-15-project-timeline');

  // A proponent's name opens the desk's organization page, not a web page.
  const people = app.getByRole('region', { name: 'Proponents and validators' });
  const proponent = people.getByRole('listitem').first().getByRole('button');
  const name = (await proponent.textContent())!;
  await proponent.click();
  await expect(app.getByRole('heading', { level: 1, name: 'Organizations' })).toBeVisible();
  await expect(app.getByRole('complementary', { name: 'Organization details' }).getByRole('heading', { name })).toBeVisible();
  // Escape closes its details.
  await app.locator('body').press('Escape');
  await expect(app.getByRole('complementary', { name: 'Organization details' })).toBeHidden();

  // Back to the retirement from the timeline.
  await app.keyboard.press('Control+3');
  await expect(app.getByRole('complementary', { name: 'Retirement details' })).toContainText(retirementId);
});
