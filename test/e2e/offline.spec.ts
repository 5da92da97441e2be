// Offline: the registry process is stopped; the desk keeps answering from its cache, the page says
// it is offline and how old the data is, and browsing goes on. The desk's probe notices loss and
// return by itself, and what needs the registry is disabled with the reason meanwhile.
import { builtRun, expect, nextAppEvent, PROJECT_ROOT, screenshotBothThemes, test } from './fixtures';
import { startProcess } from './processes';
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

test('the desk notices the registry going away and coming back by itself, and disables what needs it', async ({ app, desk }) => {
  const registry = desk.registry!;
  const banner = app.getByRole('status').filter({ hasText: 'Offline.' });
  await app.keyboard.press('Control+3');
  await app.getByRole('table', { name: 'Retirements' }).getByRole('row').filter({ hasText: 'Claimed' }).first().click();
  const details = app.getByRole('complementary', { name: 'Retirement details' });
  const download = details.getByRole('button', { name: 'Download certificate (PDF)' });
  await expect(download).toBeEnabled();

  // Nobody presses Sync: the desk's own probe notices within its interval (10 s) and says so.
  const port = new URL(registry.url).port;
  await registry.stop();
  await expect(banner).toBeVisible({ timeout: 30_000 });
  await expect(download).toBeDisabled();
  await expect(details).toContainText('The registry cannot be reached: the certificate is made by the registry');
  await screenshotBothThemes(app, 'offline-probe');
  // What is shown was saved by the last sync: the banner says how old it is, never "nothing saved".
  await expect(banner).toContainText(/You are seeing data saved/);
  await expect(banner).not.toContainText('nothing has been saved');
  // A sync tried meanwhile fails...
  const failed = nextAppEvent(app, 'desk:sync-failed');
  await app.getByRole('button', { name: 'Sync now' }).click();
  await failed;
  const syncStatus = app.getByRole('region', { name: 'Sync status' });
  await expect(syncStatus).toContainText('Last sync failed');

  // The registry returns at the same address: the probe (backing off from 2 s) clears the banner.
  const restarted = await startProcess(
    'registry again',
    ...builtRun('serve', ['--data', registry.dataDir, '--port', port, '--test-clock']),
    {
      cwd: PROJECT_ROOT,
      ready: /listening on (http:\/\/\S+)/,
      timeoutMs: 120_000,
    },
  );
  try {
    await expect(banner).toHaveCount(0, { timeout: 40_000 });
    await expect(download).toBeEnabled();
    // ...and is run again by itself once the registry is back: nobody has to press Sync now.
    await expect(syncStatus).not.toContainText('Last sync failed', { timeout: 30_000 });
  } finally {
    await restarted.stop();
  }
});
