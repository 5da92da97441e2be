// Issue 14: the back office against the embedded registry (its local administrator): Organizations
// (list, filters, create after a review, its page, record the verification, edit it after a review)
// and Operators (create from a public key, disable), each screen in both themes; then the same
// registry through a remote connection with a viewer operator added in Settings: every write is shown
// disabled with its reason and nothing is sent (the registry's audit log gains no write); last,
// through a proxy that drops the registry's answer to a write: the desk retries with the same key and
// ends on "done", made once.
import { generateKeyPairSync } from 'node:crypto';
import { join } from 'node:path';
import { createServer } from 'node:http';
import BetterSqlite3 from 'better-sqlite3';
import type { Page } from '@playwright/test';
import { expect, nextAppEvent, screenshotBothThemes, test } from './fixtures';

const sidebarItem = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Back office' }).getByRole('button', { name, exact: true });

function registryCount(dataDir: string, sql: string, ...args: string[]): number {
  const db = new BetterSqlite3(join(dataDir, 'embedded-registry', 'registry.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare(sql)
      .pluck()
      .get(...args) as number;
  } finally {
    db.close();
  }
}

/** Creates an operator account on the Operators screen; answers its id and private key (PEM). */
async function createOperator(page: Page, name: string, role: 'viewer' | 'manager'): Promise<{ id: string; privateKeyPem: string }> {
  const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  await page.getByRole('button', { name: 'New operator' }).click();
  const form = page.getByRole('dialog', { name: 'New operator' });
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Role').selectOption(role);
  await form.getByLabel('Public key (PEM)').fill(keys.publicKey.export({ type: 'spki', format: 'pem' }).toString());
  await form.getByRole('button', { name: 'Review' }).click();
  const review = page.getByRole('dialog', { name: 'Review the new operator' });
  await review.getByRole('button', { name: 'Create operator' }).click();
  const created = page.getByRole('dialog', { name: 'Operator created' });
  await expect(created.getByRole('status').filter({ hasText: 'Done' })).toBeVisible();
  const id = (await created.locator('p .mono').textContent())!.trim();
  await created.locator('.actions').getByRole('button', { name: 'Close' }).click();
  return { id, privateKeyPem: keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
}

/** Adds a remote connection in Settings with an operator account, and makes it the one in use. */
async function addOperatorConnection(
  page: Page,
  fields: { name: string; address: string; app: { id: string; privateKeyPem: string }; operator: { id: string; privateKeyPem: string } },
): Promise<void> {
  await page.keyboard.press('Control+6');
  await page.getByRole('button', { name: 'Add remote connection…' }).click();
  const form = page.getByRole('form', { name: 'Add a remote connection' });
  await form.getByLabel('Connection name').fill(fields.name);
  await form.getByLabel('Registry address').fill(fields.address);
  await form.getByLabel('App id').fill(fields.app.id);
  await form
    .getByLabel('Private key file')
    .setInputFiles({ name: 'app-key.pem', mimeType: 'application/x-pem-file', buffer: Buffer.from(fields.app.privateKeyPem) });
  await form.getByLabel('Operator id').fill(fields.operator.id);
  await form
    .getByLabel('Operator key file')
    .setInputFiles({ name: 'operator.pem', mimeType: 'application/x-pem-file', buffer: Buffer.from(fields.operator.privateKeyPem) });
  if (await form.getByLabel('Passphrase for the key file').count()) {
    await form.getByLabel('Passphrase for the key file').fill('correct horse battery staple');
    await form.getByRole('checkbox', { name: 'Store the key in a passphrase-encrypted file' }).check();
  }
  await form.getByRole('button', { name: 'Add connection' }).click();
  // the registry's log key is shown for review before anything is stored
  await expect(form.getByRole('group', { name: "The registry's log key" })).toContainText('fingerprint');
  await form.getByRole('button', { name: 'Confirm and add' }).click();
  const card = page.getByRole('region', { name: `Connection ${fields.name}` });
  await expect(card).toBeVisible();
  const synced = nextAppEvent(page, 'desk:sync-finished');
  await card.getByRole('button', { name: 'Use this connection' }).click();
  await synced;
}

/**
 * A proxy to the registry that forwards every request, but for the first `drops.count` matching
 * requests forwards them (the registry acts) and then drops the answer (the connection is cut).
 */
async function droppingProxy(
  target: string,
  drops: { method: string; path: string; count: number },
): Promise<{ url: string; close(): void }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = { ...req.headers };
      delete headers.host;
      const relay = async () => {
        const answer = await fetch(new URL(req.url!, target), {
          method: req.method!,
          headers: headers as Record<string, string>,
          ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
        });
        const body = Buffer.from(await answer.arrayBuffer());
        if (req.method === drops.method && req.url!.startsWith(drops.path) && drops.count > 0) {
          drops.count--;
          req.socket.destroy();
          return;
        }
        const out: Record<string, string> = {};
        answer.headers.forEach((value, name) => {
          if (!['content-encoding', 'transfer-encoding', 'connection', 'content-length'].includes(name)) out[name] = value;
        });
        res.writeHead(answer.status, out).end(body);
      };
      // The registry cannot be reached (it stops before the desk at the end of the test): the desk
      // sees a cut connection, as through a real proxy, and the test process no unhandled rejection.
      relay().catch(() => req.socket.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      server.close();
      // The desk's kept-alive connections too, so nothing reaches the registry through it any more.
      server.closeAllConnections();
    },
  };
}

function auditCount(dataDir: string): number {
  const db = new BetterSqlite3(join(dataDir, 'embedded-registry', 'registry.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT COUNT(*) FROM audit_log').pluck().get() as number;
  } finally {
    db.close();
  }
}

test('organizations and operators as the local administrator, then as a viewer: disabled with the reason, nothing sent', async ({
  app,
  desk,
}) => {
  test.setTimeout(240_000);
  // ---- Organizations: list and filters
  await sidebarItem(app, 'Organizations (operator)').click();
  await expect(app.getByRole('heading', { level: 1, name: 'Organizations (operator)' })).toBeVisible();
  await expect(app.getByText(/Acting as Local administrator \(this desk\) · Administrator/)).toBeVisible();
  const table = app.getByRole('table', { name: 'Back-office organizations' });
  await expect(table.getByRole('row').nth(1)).toBeVisible();
  const all = await table.getByRole('row').count();
  await app.getByRole('group', { name: 'Filters' }).getByLabel('Verified').selectOption('yes');
  await expect.poll(() => table.getByRole('row').count()).toBeLessThanOrEqual(all);
  await app.getByRole('group', { name: 'Filters' }).getByLabel('Verified').selectOption('');
  await screenshotBothThemes(app, 'back-office-organizations');

  // ---- create, after a review
  await app.getByRole('button', { name: 'New organization' }).click();
  const dialog = app.getByRole('dialog', { name: 'New organization' });
  await dialog.getByLabel('Name').fill('Savanna Carbon Cooperative');
  await dialog.getByLabel('Country', { exact: true }).selectOption('KE');
  await dialog.getByRole('button', { name: 'Review' }).click();
  const review = app.getByRole('dialog', { name: 'Review the new organization' });
  await expect(review).toContainText('Kenya (KE)');
  // Focus went into the review step, not to <body> with the form's button.
  await expect(review.locator(':focus')).toHaveCount(1);
  const before = auditCount(desk.dataDir);
  await review.getByRole('button', { name: 'Create' }).click();
  const created = app.getByRole('dialog', { name: 'Organization created' });
  await expect(created.getByRole('status').filter({ hasText: 'Done' })).toBeVisible();
  expect(auditCount(desk.dataDir)).toBe(before + 1);
  await created.getByRole('button', { name: 'Open its page' }).click();

  // ---- its page: record the verification after a review
  await expect(app.getByRole('heading', { level: 2, name: 'Savanna Carbon Cooperative' })).toBeVisible();
  await expect(app.getByText('Not verified').first()).toBeVisible();
  await app.getByRole('button', { name: 'Record verification' }).click();
  const verify = app.getByRole('dialog', { name: 'Record the verification' });
  await expect(verify).toContainText('Not verified → Verified');
  await verify.getByRole('button', { name: 'Record verification' }).click();
  const recorded = app.getByRole('dialog', { name: 'Verification recorded' });
  await expect(recorded.getByRole('status').filter({ hasText: 'Done' })).toBeVisible();
  await recorded.locator('.actions').getByRole('button', { name: 'Close' }).click();
  await expect(app.getByRole('button', { name: 'Withdraw verification' })).toBeVisible();
  await expect(app.getByRole('table', { name: 'Audit trail' })).toContainText('Verification changed');

  // ---- edit it: the form opens on its first field, filled; the review shows before → after
  await app.getByRole('button', { name: 'Edit', exact: true }).click();
  const edit = app.getByRole('dialog', { name: 'Edit organization' });
  await expect(edit.getByLabel('Name', { exact: true })).toBeFocused();
  await expect(edit.getByLabel('Name', { exact: true })).toHaveValue('Savanna Carbon Cooperative');
  await edit.getByLabel('City').fill('Nanyuki');
  await edit.getByRole('button', { name: 'Review' }).click();
  const editReview = app.getByRole('dialog', { name: 'Review the changes to the organization' });
  await expect(editReview.getByRole('table', { name: 'What changes' }).getByRole('row')).toHaveText([
    /Field\s*Before\s*After/,
    /City\s*—\s*Nanyuki/,
  ]);
  await screenshotBothThemes(app, 'back-office-organization-edit');
  await editReview.getByRole('button', { name: 'Save changes' }).click();
  const saved = app.getByRole('dialog', { name: 'Organization changed' });
  await expect(saved.getByRole('status').filter({ hasText: 'Done' })).toBeVisible();
  await saved.locator('.actions').getByRole('button', { name: 'Close' }).click();
  await expect(app.locator('.facts')).toContainText('Nanyuki');
  await expect(app.getByRole('table', { name: 'Audit trail' })).toContainText('Organization changed');
  expect(registryCount(desk.dataDir, 'SELECT COUNT(*) FROM organizations WHERE city = ?', 'Nanyuki')).toBe(1);

  // another organization's page: its accounts and balances, its ledger movements (from the back-office cache)
  await app.getByRole('button', { name: '← All organizations' }).click();
  await app.getByRole('searchbox', { name: 'Search organizations' }).fill('');
  await table.getByRole('row').nth(1).getByRole('button').first().click();
  await expect(app.getByRole('heading', { level: 3, name: 'Accounts and balances' })).toBeVisible();
  await screenshotBothThemes(app, 'back-office-organization-page');

  // ---- Operators: create a viewer from its public key
  await sidebarItem(app, 'Operators').click();
  await expect(app.getByRole('table', { name: 'Operator accounts' })).toContainText('Local administrator (this desk)');
  const viewer = await createOperator(app, 'Vera Viewer', 'viewer');
  const manager = await createOperator(app, 'Max Manager', 'manager');
  const operators = app.getByRole('table', { name: 'Operator accounts' });
  await expect(operators).toContainText('Vera Viewer');
  // the desk's own account cannot be disabled from here: shown disabled with the reason
  const own = operators.getByRole('row').filter({ hasText: '(you)' }).getByRole('button');
  await expect(own).toHaveAttribute('aria-disabled', 'true');
  await screenshotBothThemes(app, 'back-office-operators');

  // ---- Settings: the same registry as a remote connection, acting as the viewer
  await app.keyboard.press('Control+6');
  const embeddedCard = app.getByRole('region', { name: /^Connection / }).first();
  await expect(embeddedCard).toContainText('Local administrator (this desk) · Administrator');
  const address = (await embeddedCard.getByRole('definition').nth(1).textContent())!.trim();
  await addOperatorConnection(app, { name: 'Viewer desk', address, app: desk.credentials.app, operator: viewer });
  const viewerCard = app.getByRole('region', { name: 'Connection Viewer desk' });
  await expect(viewerCard).toContainText('Vera Viewer · Viewer');

  // ---- as the viewer: reads work, every write is disabled with its reason, and nothing is sent
  const writesBefore = auditCount(desk.dataDir);
  await sidebarItem(app, 'Organizations (operator)').click();
  await expect(app.getByText('Acting as Vera Viewer · Viewer')).toBeVisible();
  const create = app.getByRole('button', { name: 'New organization' });
  await expect(create).toHaveAttribute('aria-disabled', 'true');
  await expect(app.getByText('Needs the manager role: Vera Viewer is a viewer').first()).toBeVisible();
  await create.click({ force: true });
  await expect(app.getByRole('dialog')).toHaveCount(0);
  await app.getByRole('searchbox', { name: 'Search organizations' }).fill('Savanna');
  await app.getByRole('table', { name: 'Back-office organizations' }).getByRole('button', { name: 'Savanna Carbon Cooperative' }).click();
  await expect(app.getByRole('button', { name: 'Edit', exact: true })).toHaveAttribute('aria-disabled', 'true');
  const withdraw = app.getByRole('button', { name: 'Withdraw verification' });
  await expect(withdraw).toHaveAttribute('aria-disabled', 'true');
  await withdraw.click({ force: true });
  await expect(app.getByRole('dialog')).toHaveCount(0);
  await screenshotBothThemes(app, 'back-office-viewer');
  await sidebarItem(app, 'Operators').click();
  await expect(app.getByText('Operator accounts are for administrators')).toBeVisible();
  // the viewer may not list operators, yet its own entries (its tokens) name it, not its id
  await sidebarItem(app, 'Audit log').click();
  const entries = app.getByRole('table', { name: 'Audit entries' });
  const viewerOwn = entries
    .getByRole('row')
    .filter({ hasText: 'Operator signed in' })
    .filter({ hasText: `operator:${viewer.id}` });
  await expect(viewerOwn.first().getByRole('cell').nth(1)).toHaveText(new RegExp(`^Vera Viewer\\s*operator:${viewer.id}$`));
  expect(auditCount(desk.dataDir)).toBe(writesBefore);

  // ---- a write whose answer the network dropped: retried with the same key, done once
  const drops = { method: 'POST', path: '/operator/v1/organizations', count: 1 };
  const proxy = await droppingProxy(address, drops);
  try {
    await addOperatorConnection(app, { name: 'Flaky network', address: proxy.url, app: desk.credentials.app, operator: manager });
    await sidebarItem(app, 'Organizations (operator)').click();
    await expect(app.getByText('Acting as Max Manager · Manager')).toBeVisible();
    await app.getByRole('button', { name: 'New organization' }).click();
    const flaky = app.getByRole('dialog', { name: 'New organization' });
    await flaky.getByLabel('Name').fill('Dropped Answer Cooperative');
    await flaky.getByLabel('Country', { exact: true }).selectOption('UG');
    await flaky.getByRole('button', { name: 'Review' }).click();
    const flakyReview = app.getByRole('dialog', { name: 'Review the new organization' });
    await flakyReview.getByRole('button', { name: 'Create' }).click();
    const flakyCreated = app.getByRole('dialog', { name: 'Organization created' });
    await expect(flakyCreated.getByRole('status').filter({ hasText: 'Done' })).toBeVisible();
    expect(drops.count, 'the proxy dropped the first answer').toBe(0);
  } finally {
    proxy.close();
  }
  expect(registryCount(desk.dataDir, 'SELECT COUNT(*) FROM organizations WHERE full_name = ?', 'Dropped Answer Cooperative')).toBe(1);
  expect(
    registryCount(
      desk.dataDir,
      "SELECT COUNT(*) FROM audit_log WHERE action = 'organizations.create' AND outcome = 'succeeded' AND detail LIKE ?",
      '%Dropped Answer Cooperative%',
    ),
  ).toBe(1);
});
