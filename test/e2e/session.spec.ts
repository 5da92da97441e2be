// The web desk's session: a reload and a second tab of the same browser session keep working for
// the life of the desk process (they once failed every call with "missing or wrong desk token"), the
// launch address still works only once, and a lost session says what to do in one sentence.
import { expect, test, waitForSyncDone } from './fixtures';

const SESSION_LOST =
  'This desk session has ended: open the desk again from the launch address printed where the desk was started (npm run web).';

test('reload and a second tab keep working; the launch secret is single-use; a lost session says what to do', async ({
  app,
  desk,
  browser,
  pageProblems,
}) => {
  const origin = new URL(desk.launchUrl).origin;
  const organizations = async (page: typeof app) => {
    await page.keyboard.press('Control+5');
    await expect(page.getByRole('heading', { level: 1, name: 'Organizations' })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Organizations' }).getByRole('row').nth(1)).toBeVisible();
  };

  // The spent launch secret left the address bar.
  expect(app.url()).toBe(`${origin}/`);

  // A reload: the app works, its calls are answered.
  await app.reload();
  await waitForSyncDone(app);
  await expect(app.getByRole('table', { name: 'Projects' }).getByRole('row').nth(1)).toBeVisible();
  await organizations(app);

  // A second tab of the same browser session, opened at the desk's address.
  const second = await app.context().newPage();
  await second.goto(`${origin}/`);
  await expect(second.getByRole('table', { name: 'Projects' }).getByRole('row').nth(1)).toBeVisible();
  await organizations(second);
  await expect(second.getByText('missing or wrong desk token')).toHaveCount(0);
  await second.close();

  // The launch address works once: another browser (no session cookie) is refused, told how to get in.
  const stranger = await browser.newContext();
  const strangerPage = await stranger.newPage();
  const refused = await strangerPage.goto(desk.launchUrl);
  expect(refused?.status()).toBe(403);
  await expect(strangerPage.getByText(/press Enter in the terminal where the desk runs/)).toBeVisible();
  await expect(strangerPage.getByText(/choose Settings, then “New launch address”/)).toBeVisible();
  // As it says: the open desk's Settings give a new address, and it opens the desk there, once.
  await app.keyboard.press('Control+6');
  await app.getByRole('button', { name: 'New launch address' }).click();
  const fresh = (await app.getByRole('status').getByLabel('Launch address').textContent())!;
  expect(new URL(fresh).origin).toBe(origin);
  await strangerPage.goto(fresh);
  await expect(strangerPage.getByRole('table', { name: 'Projects' }).getByRole('row').nth(1)).toBeVisible();
  await organizations(strangerPage);
  await stranger.close();
  // Spent there: a third browser is refused it.
  const third = await browser.newContext();
  expect((await (await third.newPage()).goto(fresh))?.status()).toBe(403);
  await third.close();

  // The session is lost (cookie gone, as after a desk restart): one sentence says what to do.
  await app.context().clearCookies();
  await app.keyboard.press('Control+1');
  await app.keyboard.press('Control+5');
  await expect(app.getByRole('alert')).toHaveText(SESSION_LOST);
  // The browser logs the host's 403 answers to the refused session; those are the point here.
  const refusals = pageProblems.filter((p) => /status of 403/.test(p));
  pageProblems.splice(0, pageProblems.length, ...pageProblems.filter((p) => !refusals.includes(p)));
});
