// Issue 14: the back office against the embedded registry (its local administrator): Organizations
// (list, filters, create after a review, its page, record the verification) and Operators (create
// from a public key, disable), each screen in both themes; then the same registry through a remote
// connection with a viewer operator added in Settings: every write is shown disabled with its reason
// and nothing is sent (the registry's audit log gains no write).
import { generateKeyPairSync } from 'node:crypto';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import type { Page } from '@playwright/test';
import { expect, nextAppEvent, screenshotBothThemes, test } from './fixtures';

const sidebarItem = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Back office' }).getByRole('button', { name, exact: true });

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
  await sidebarItem(app, 'Organizations').click();
  await expect(app.getByRole('heading', { level: 1, name: 'Organizations' })).toBeVisible();
  await expect(app.getByText(/Acting as Local administrator \(this desk\) \(administrator\)/)).toBeVisible();
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
  await dialog.getByLabel('Country code').fill('ke');
  await dialog.getByRole('button', { name: 'Review' }).click();
  const review = app.getByRole('dialog', { name: 'Review the new organization' });
  await expect(review).toContainText('Kenya (KE)');
  const before = auditCount(desk.dataDir);
  await review.getByRole('button', { name: 'Create' }).click();
  await expect(review.getByRole('status').filter({ hasText: 'Done' })).toBeVisible();
  expect(auditCount(desk.dataDir)).toBe(before + 1);
  await review.getByRole('button', { name: 'Open its page' }).click();

  // ---- its page: record the verification after a review
  await expect(app.getByRole('heading', { level: 2, name: 'Savanna Carbon Cooperative' })).toBeVisible();
  await expect(app.getByText('Not verified').first()).toBeVisible();
  await app.getByRole('button', { name: 'Record verification' }).click();
  const verify = app.getByRole('dialog', { name: 'Record the verification' });
  await expect(verify).toContainText('Not verified → Verified');
  await verify.getByRole('button', { name: 'Record verification' }).click();
  await expect(verify.getByRole('status').filter({ hasText: 'Done' })).toBeVisible();
  await verify.locator('.actions').getByRole('button', { name: 'Close' }).click();
  await expect(app.getByRole('button', { name: 'Withdraw verification' })).toBeVisible();
  await expect(app.getByRole('table', { name: 'Audit trail' })).toContainText('organizations.setVerified');

  // another organization's page: its accounts and balances, its ledger movements (from the back-office cache)
  await app.getByRole('button', { name: '← All organizations' }).click();
  await app.getByRole('searchbox', { name: 'Search organizations' }).fill('');
  await table.getByRole('row').nth(1).getByRole('button').first().click();
  await expect(app.getByRole('table', { name: 'Accounts and balances' })).toBeVisible();
  await screenshotBothThemes(app, 'back-office-organization-page');

  // ---- Operators: create a viewer from its public key
  await sidebarItem(app, 'Operators').click();
  await expect(app.getByRole('table', { name: 'Operator accounts' })).toContainText('Local administrator (this desk)');
  const viewerKeys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  await app.getByRole('button', { name: 'New operator' }).click();
  const newOperator = app.getByRole('dialog', { name: 'New operator' });
  await newOperator.getByLabel('Name').fill('Vera Viewer');
  await newOperator.getByLabel('Role').selectOption('viewer');
  await newOperator.getByLabel('Public key (PEM)').fill(viewerKeys.publicKey.export({ type: 'spki', format: 'pem' }).toString());
  await newOperator.getByRole('button', { name: 'Review' }).click();
  const reviewOperator = app.getByRole('dialog', { name: 'Review the new operator' });
  await reviewOperator.getByRole('button', { name: 'Create operator' }).click();
  await expect(reviewOperator.getByRole('status').filter({ hasText: 'Done' })).toBeVisible();
  const viewerId = (await reviewOperator.locator('p .mono').textContent())!.trim();
  await reviewOperator.locator('.actions').getByRole('button', { name: 'Close' }).click();
  const operators = app.getByRole('table', { name: 'Operator accounts' });
  await expect(operators).toContainText('Vera Viewer');
  // the desk's own account cannot be disabled from here: shown disabled with the reason
  const own = operators.getByRole('row').filter({ hasText: '(you)' }).getByRole('button');
  await expect(own).toHaveAttribute('aria-disabled', 'true');
  await screenshotBothThemes(app, 'back-office-operators');

  // ---- Settings: the same registry as a remote connection, acting as the viewer
  await app.keyboard.press('Control+6');
  const embeddedCard = app.getByRole('region', { name: /^Connection / }).first();
  await expect(embeddedCard).toContainText('Local administrator (this desk) (administrator)');
  const address = (await embeddedCard.getByRole('definition').nth(1).textContent())!.trim();
  await app.getByRole('button', { name: 'Add remote connection…' }).click();
  const form = app.getByRole('form', { name: 'Add a remote connection' });
  await form.getByLabel('Connection name').fill('Viewer desk');
  await form.getByLabel('Registry address').fill(address);
  await form.getByLabel('App id').fill(desk.credentials.app.id);
  await form
    .getByLabel('Private key file')
    .setInputFiles({ name: 'app-key.pem', mimeType: 'application/x-pem-file', buffer: Buffer.from(desk.credentials.app.privateKeyPem) });
  await form.getByLabel('Operator id').fill(viewerId);
  await form.getByLabel('Operator key file').setInputFiles({
    name: 'viewer.pem',
    mimeType: 'application/x-pem-file',
    buffer: Buffer.from(viewerKeys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()),
  });
  if (await form.getByLabel('Passphrase for the key file').count()) {
    await form.getByLabel('Passphrase for the key file').fill('correct horse battery staple');
    await form.getByRole('checkbox', { name: 'Store the key in a passphrase-encrypted file' }).check();
  }
  await form.getByRole('button', { name: 'Add connection' }).click();
  const viewerCard = app.getByRole('region', { name: 'Connection Viewer desk' });
  await expect(viewerCard).toBeVisible();
  const synced = nextAppEvent(app, 'desk:sync-finished');
  await viewerCard.getByRole('button', { name: 'Use this connection' }).click();
  await synced;
  await expect(viewerCard).toContainText('Vera Viewer (viewer)');

  // ---- as the viewer: reads work, every write is disabled with its reason, and nothing is sent
  const writesBefore = auditCount(desk.dataDir);
  await sidebarItem(app, 'Organizations').click();
  await expect(app.getByText('Acting as Vera Viewer (viewer)')).toBeVisible();
  const create = app.getByRole('button', { name: 'New organization' });
  await expect(create).toHaveAttribute('aria-disabled', 'true');
  await expect(app.getByText('Needs the manager role: Vera Viewer is a viewer').first()).toBeVisible();
  await create.click({ force: true });
  await expect(app.getByRole('dialog')).toHaveCount(0);
  await app.getByRole('searchbox', { name: 'Search organizations' }).fill('Savanna');
  await app.getByRole('table', { name: 'Back-office organizations' }).getByRole('button', { name: 'Savanna Carbon Cooperative' }).click();
  const withdraw = app.getByRole('button', { name: 'Withdraw verification' });
  await expect(withdraw).toHaveAttribute('aria-disabled', 'true');
  await withdraw.click({ force: true });
  await expect(app.getByRole('dialog')).toHaveCount(0);
  await screenshotBothThemes(app, 'back-office-viewer');
  await sidebarItem(app, 'Operators').click();
  await expect(app.getByText('Operator accounts are for administrators')).toBeVisible();
  expect(auditCount(desk.dataDir)).toBe(writesBefore);
});
