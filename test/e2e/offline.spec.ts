// Offline: the registry process is stopped; the desk keeps answering from its cache, the page says
// it is offline and how old the data is, and browsing goes on.
import { expect, nextAppEvent, screenshotBothThemes, test } from './fixtures';
import { shownProjectRows } from './helpers';

test.use({ deskOptions: { registry: 'remote', scale: 1 } });

test('stop the registry and keep browsing offline with the banner shown', async ({ app, desk }) => {
  const [first] = await shownProjectRows(app);
  await expect(app.getByRole('status').filter({ hasText: 'Offline.' })).toHaveCount(0);
  await desk.registry!.stop();

  // The next sync cannot reach the registry: its failure is reported in words.
  const failed = nextAppEvent(app, 'desk:sync-failed');
  await app.getByRole('button', { name: 'Sync now' }).click();
  await failed;
  await expect(app.getByRole('region', { name: 'Sync status' })).toContainText('Last sync failed');

  // Reads come back from the cache, marked offline: the banner says so and how old the data is.
  await app.getByRole('searchbox', { name: 'Search projects' }).fill(first!.name);
  await app.waitForFunction((q) => document.documentElement.dataset.projectsQuery === q, first!.name);
  const banner = app.getByRole('status').filter({ hasText: 'Offline.' });
  await expect(banner).toContainText(/You are seeing data saved (just now|\d+ minutes? ago)/);
  await app
    .getByRole('row', { name: new RegExp(first!.name) })
    .first()
    .click();
  await expect(app.getByRole('heading', { level: 1, name: first!.name })).toBeVisible();
  await expect(app.getByRole('region', { name: 'Credits' })).toBeVisible();
  await expect(banner).toBeVisible();
  await screenshotBothThemes(app, 'offline-project');
});
