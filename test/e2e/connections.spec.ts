// Adding a remote connection in Settings: a second real registry (seeded at another scale than the
// embedded demo, so its data can be told apart), its address, app id and private key file. The key
// is proven against the registry before anything is stored: a wrong key is refused and nothing is
// saved. The installations the registry reports are shown; activating the connection syncs it and
// the desk then shows that registry's data.
//
// Where the key is kept depends on the machine: in the OS keychain when a Secret Service answers
// (CI runs the suite inside a D-Bus session with an unlocked gnome-keyring), otherwise, once the user
// confirms, in a passphrase-encrypted file. Both paths are covered here whatever the environment: the
// desk gets its own keyring, or none (see `secretService` in fixtures.ts).
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { mintAppJwt } from '@desk/client/app-jwt';
import { systemClock } from '@platform/clock';
import { expect, nextAppEvent, screenshotBothThemes, startRegistry, test, type TestRegistry } from './fixtures';
import { projectsTotal, shownProjectRows } from './helpers';

let second: TestRegistry;
let secondRoot: string;

// One second registry for the whole file: adding a connection to it changes nothing there. Its tests
// run in order in one worker, so the registry is seeded once, not once per worker.
test.describe.configure({ mode: 'default' });

test.beforeAll(async () => {
  secondRoot = mkdtempSync(join(tmpdir(), 'registry-desk-e2e-second-'));
  second = await startRegistry(join(secondRoot, 'registry'), 2);
});

test.afterAll(async () => {
  await second?.stop();
  if (secondRoot) rmSync(secondRoot, { recursive: true, force: true });
});

/** A valid RSA private key the second registry has never seen. */
function strangerKey(): string {
  return generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  }).privateKey;
}

/** What the second registry itself lists first, and how many public projects it has (asked with an app token). */
async function secondRegistryProjects(): Promise<{ total: number; first: { num: string; fullName: string } }> {
  const { id: appId, privateKeyPem } = second.credentials.app;
  const jwt = await mintAppJwt({ appId, clock: systemClock, loadPrivateKey: async () => privateKeyPem });
  const grant = await fetch(`${second.url}/app/accessTokens`, { method: 'POST', headers: { authorization: `Bearer ${jwt}` } });
  expect(grant.ok).toBe(true);
  const { token } = (await grant.json()) as { token: string };
  const response = await fetch(`${second.url}/projects?page=0&limit=1`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.ok).toBe(true);
  const body = (await response.json()) as { pagination: { total: number }; projects: Array<{ num: string; fullName: string }> };
  return { total: body.pagination.total, first: body.projects[0]! };
}

/** A loopback URL where nothing listens. */
async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** Add, then (the registry's log key shown for review) Confirm and add. */
async function addAndConfirm(form: Locator): Promise<void> {
  await form.getByRole('button', { name: 'Add connection' }).click();
  await expect(form.getByRole('group', { name: "The registry's log key" })).toContainText('fingerprint');
  await form.getByRole('button', { name: 'Confirm and add' }).click();
}

async function openAddForm(page: Page): Promise<Locator> {
  await page.keyboard.press('Control+6');
  await expect(page.getByRole('heading', { level: 1, name: 'Connections & settings' })).toBeVisible();
  await page.getByRole('button', { name: 'Add remote connection…' }).click();
  return page.getByRole('form', { name: 'Add a remote connection' });
}

async function fillForm(form: Locator, fields: { name: string; url: string; appId: string; pem: string }): Promise<void> {
  await form.getByLabel('Connection name').fill(fields.name);
  await form.getByLabel('Registry address').fill(fields.url);
  await form.getByLabel('App id').fill(fields.appId);
  await form
    .getByLabel('Private key file')
    .setInputFiles({ name: 'app-key.pem', mimeType: 'application/x-pem-file', buffer: Buffer.from(fields.pem) });
}

const connectionCards = (page: Page) => page.getByRole('region', { name: /^Connection / });

/** The connections the desk has saved, as a fresh page load shows them. */
async function savedConnectionNames(page: Page): Promise<string[]> {
  await page.reload();
  await page.keyboard.press('Control+6');
  await expect(connectionCards(page).first()).toBeVisible();
  return (await connectionCards(page).getByRole('heading', { level: 3 }).allTextContents()).map((t) => t.replace(/\s*In use$/, '').trim());
}

/** Activates the card's connection and waits for the desk's first sync of it. */
async function useConnection(page: Page, card: Locator): Promise<void> {
  const synced = nextAppEvent(page, 'desk:sync-finished');
  await card.getByRole('button', { name: 'Use this connection' }).click();
  await synced;
  await expect(card.getByText('In use')).toBeVisible();
  // its button gone, focus is on the card now in use (not dropped to the page)
  await expect(card).toBeFocused();
}

/** The Projects screen now lists the second registry's projects: its count and its first project. */
async function expectSecondRegistryProjects(page: Page, embeddedTotal: number): Promise<void> {
  const expected = await secondRegistryProjects();
  expect(expected.total).not.toBe(embeddedTotal);
  await page.keyboard.press('Control+1');
  await expect(page.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();
  await expect(page.getByText(new RegExp(`^${expected.total.toLocaleString('en-US')} projects$`))).toBeVisible();
  expect(await projectsTotal(page)).toBe(expected.total);
  const [first] = await shownProjectRows(page);
  expect(first).toMatchObject({ num: expected.first.num, name: expected.first.fullName });
}

test.describe('with an OS keychain', () => {
  test.use({ deskOptions: { registry: 'embedded', scale: 1, secretService: 'keychain' } });

  test('add a remote registry: a wrong key is refused, the right one is kept in the keychain, then activate and sync it', async ({
    app,
  }) => {
    const embeddedTotal = await projectsTotal(app);
    const { app: demoApp, installations } = second.credentials;
    let form = await openAddForm(app);
    // A keychain is there: no passphrase is asked for.
    await expect(form.getByLabel('Passphrase for the key file')).toHaveCount(0);

    // A valid key of another app: the registry refuses it, the form says so, nothing is saved.
    await fillForm(form, { name: 'Second registry', url: second.url, appId: demoApp.id, pem: strangerKey() });
    await addAndConfirm(form);
    await expect(form.getByRole('alert')).toContainText("The connection was not added: The registry refused this app's credentials");
    await expect(connectionCards(app)).toHaveCount(1);
    expect(await savedConnectionNames(app)).toEqual(['Embedded demo registry']);

    // The right key: the connection is saved with the installations the registry reports.
    form = await openAddForm(app);
    await fillForm(form, { name: 'Second registry', url: second.url, appId: demoApp.id, pem: demoApp.privateKeyPem });
    await addAndConfirm(form);
    await expect(form).toHaveCount(0);
    const card = app.getByRole('region', { name: 'Connection Second registry' });
    await expect(card).toContainText('Remote registry');
    await expect(card).toContainText(second.url);
    await expect(card).toContainText(demoApp.id);
    await expect(card.getByRole('definition').filter({ hasText: 'System keychain' })).toBeVisible();
    await expect(card.getByText('Available', { exact: true })).toBeVisible();
    const installationRows = card.getByRole('table', { name: 'Installations of Second registry' }).locator('tbody tr');
    await expect(installationRows).toHaveCount(installations.length);
    await expect(card.getByRole('table', { name: 'Installations of Second registry' })).toContainText('Organization warehouse: can change');
    await card.scrollIntoViewIfNeeded();
    await screenshotBothThemes(app, 'settings-remote-connection');
    // Saved by the desk, not just shown.
    expect(await savedConnectionNames(app)).toEqual(['Embedded demo registry', 'Second registry']);

    // Every screen says which registry it shows: the embedded demo, marked as demo data.
    const activeRegistry = app.getByRole('region', { name: 'Active registry' });
    for (const shortcut of ['Control+1', 'Control+3', 'Control+5']) {
      await app.keyboard.press(shortcut);
      await expect(activeRegistry).toContainText('Embedded demo registry');
      await expect(activeRegistry).toContainText('Demo data');
    }
    // An organization left open on the embedded registry…
    await app.getByRole('table', { name: 'Organizations' }).getByRole('button').first().click();
    await expect(app.getByRole('complementary', { name: 'Organization details' })).toBeVisible();
    await app.keyboard.press('Control+6');

    await useConnection(app, app.getByRole('region', { name: 'Connection Second registry' }));
    await expect(activeRegistry).toContainText('Second registry');
    await expect(activeRegistry).toContainText(new URL(second.url).host);
    await expect(activeRegistry).not.toContainText('Demo data');
    // …is closed once another registry is active.
    await app.keyboard.press('Control+5');
    await expect(app.getByRole('heading', { level: 1, name: 'Organizations' })).toBeVisible();
    await expect(app.getByRole('complementary', { name: 'Organization details' })).toHaveCount(0);
    await screenshotBothThemes(app, 'active-registry-remote');
    await expectSecondRegistryProjects(app, embeddedTotal);
  });
});

test.describe('without an OS keychain', () => {
  test.use({ deskOptions: { registry: 'embedded', scale: 1, secretService: 'none' } });

  test('add a remote registry with its key in a passphrase-encrypted file, then activate and sync it', async ({ app, desk }) => {
    const embeddedTotal = await projectsTotal(app);
    const { app: demoApp } = second.credentials;
    const secretsDir = join(desk.dataDir, 'secrets');
    const keyFiles = () => {
      try {
        return readdirSync(secretsDir).filter((name) => name.endsWith('.secrets'));
      } catch {
        return [];
      }
    };
    const form = await openAddForm(app);
    // The cause is said once, then what can be done instead (it once read "No system keychain is available (No OS keychain is available (…))").
    const notice = form.locator('.notice');
    await expect(notice).toContainText(/^No OS keychain is available \(.+\)\. The key can instead be stored in a file/);
    expect((await notice.textContent())!.match(/keychain is available/gi)).toHaveLength(1);

    // Without a passphrase and the user's consent the key is not stored anywhere.
    await fillForm(form, { name: 'Second registry', url: second.url, appId: demoApp.id, pem: demoApp.privateKeyPem });
    await form.getByRole('button', { name: 'Add connection' }).click();
    await expect(form.getByRole('alert')).toContainText('the key is stored encrypted with a passphrase of at least 8 characters');
    await form.getByLabel('Passphrase for the key file').fill('correct horse battery staple');
    await form.getByRole('checkbox', { name: 'Store the key in a passphrase-encrypted file' }).check();

    // A wrong key is refused before any file is written.
    await form
      .getByLabel('Private key file')
      .setInputFiles({ name: 'other-key.pem', mimeType: 'application/x-pem-file', buffer: Buffer.from(strangerKey()) });
    await addAndConfirm(form);
    await expect(form.getByRole('alert')).toContainText("The connection was not added: The registry refused this app's credentials");
    expect(keyFiles()).toEqual([]);
    await expect(connectionCards(app)).toHaveCount(1);

    // The right key: kept in one encrypted file that does not contain it in the clear.
    await form
      .getByLabel('Private key file')
      .setInputFiles({ name: 'app-key.pem', mimeType: 'application/x-pem-file', buffer: Buffer.from(demoApp.privateKeyPem) });
    await form.getByRole('button', { name: 'Confirm and add' }).click();
    await expect(form).toHaveCount(0);
    const card = app.getByRole('region', { name: 'Connection Second registry' });
    await expect(card.getByRole('definition').filter({ hasText: 'Passphrase-encrypted file' })).toBeVisible();
    await expect(card.getByText('Available', { exact: true })).toBeVisible();
    await expect(card.getByRole('table', { name: 'Installations of Second registry' }).locator('tbody tr')).toHaveCount(
      second.credentials.installations.length,
    );
    const files = keyFiles();
    expect(files).toHaveLength(1);
    const stored = readFileSync(join(secretsDir, files[0]!), 'utf8');
    const keyBody = demoApp.privateKeyPem.split('\n').find((line) => line.length > 40)!;
    expect(stored).not.toContain(keyBody);
    expect(stored).not.toContain('PRIVATE KEY');

    await useConnection(app, card);
    await expectSecondRegistryProjects(app, embeddedTotal);
  });
});

test('an unreachable registry address is refused and nothing is saved', async ({ app }) => {
  const url = await closedPortUrl();
  const form = await openAddForm(app);
  await fillForm(form, { name: 'Nowhere', url, appId: second.credentials.app.id, pem: second.credentials.app.privateKeyPem });
  if (await form.getByLabel('Passphrase for the key file').count()) {
    await form.getByLabel('Passphrase for the key file').fill('correct horse battery staple');
    await form.getByRole('checkbox', { name: 'Store the key in a passphrase-encrypted file' }).check();
  }
  await form.getByRole('button', { name: 'Add connection' }).click();
  // Wait for either outcome, so a connection wrongly added fails here rather than by a timeout.
  const refusal = form.getByRole('alert');
  const added = app.getByRole('region', { name: 'Connection Nowhere' });
  await expect(refusal.or(added)).toBeVisible();
  expect(await added.count()).toBe(0);
  await expect(refusal).toContainText('The connection was not added');
  await expect(refusal).toContainText('cannot be reached');
  expect(await savedConnectionNames(app)).toEqual(['Embedded demo registry']);
});
