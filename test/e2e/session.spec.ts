// The web desk's session: a reload and a second tab of the same browser session keep working for
// the life of the desk process (they once failed every call with "missing or wrong desk token"), the
// launch address still works only once, and a lost session says what to do in one sentence. The
// address and title follow the screen (issue 30), and a theme chosen in one tab reaches the other.
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

  // The spent launch secret left the address bar, which names the screen shown.
  expect(app.url()).toBe(`${origin}/projects`);

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

  // The address and title follow the screen; back and forward walk them; a project's address opens it.
  await app.keyboard.press('Control+1');
  const firstRow = app.getByRole('table', { name: 'Projects' }).getByRole('row').nth(1);
  await firstRow.click();
  const eyebrow = app.locator('main .eyebrow').filter({ hasText: /^Project \d+$/ });
  const num = (await eyebrow.textContent())!.replace('Project ', '');
  const name = (await app.getByRole('heading', { level: 1 }).textContent())!;
  await expect(app).toHaveTitle(`Project ${num}: ${name} · Registry Desk`);
  expect(new URL(app.url()).pathname).toMatch(/^\/projects\/.+/);
  await app.keyboard.press('Control+5');
  await expect(app).toHaveURL(`${origin}/organizations`);
  await expect(app).toHaveTitle('Organizations · Registry Desk');
  await app.goBack();
  await expect(app.getByRole('heading', { level: 1, name })).toBeVisible();
  await app.goForward();
  await expect(app.getByRole('heading', { level: 1, name: 'Organizations' })).toBeVisible();
  await second.goto(`${origin}/projects/${num}`);
  await expect(second.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(second).toHaveTitle(`Project ${num}: ${name} · Registry Desk`);
  await second.goto(`${origin}/back-office/audit`);
  await expect(second.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();

  // A theme chosen in one tab applies to the other open tab.
  await app.keyboard.press('Control+6');
  await app.getByRole('radio', { name: 'Dark' }).check();
  await expect(second.locator('html')).toHaveAttribute('data-theme', 'dark');
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
