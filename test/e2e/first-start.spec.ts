// First start on an empty data folder: the desk provisions its embedded registry with demo data,
// syncs it, and the Projects screen lists the demo projects.
import { expect, screenshotBothThemes, test } from './fixtures';

// The desk seeds its embedded registry itself here (the other tests start from a copy of one).
test.use({ deskOptions: { registry: 'embedded', scale: 1, seed: 'first-start' } });

test('first start syncs the demo data and lists its projects', async ({ app }) => {
  await expect(app.getByRole('heading', { name: 'Projects', level: 1 })).toBeVisible();
  const total = Number(await app.evaluate(() => document.documentElement.dataset.projectsTotal));
  expect(total).toBeGreaterThan(0);
  await expect(app.getByText(new RegExp(`^${total.toLocaleString('en-US')} projects?$`))).toBeVisible();
  // The virtualized table shows the first rows, not all of them.
  const rows = app.getByRole('table', { name: 'Projects' }).getByRole('row');
  await expect(rows.nth(1)).toBeVisible();
  await expect(app.getByRole('region', { name: 'Sync status' })).toContainText('Last synced just now');
  await screenshotBothThemes(app, 'projects');
});
