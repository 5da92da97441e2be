// Retirements: finalizing an unclaimed on-chain retirement by signing locally with the owner's
// demo wallet (private key, and an encrypted keystore kept for the session), then its certificate.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encryptKeystoreJson, Wallet } from 'ethers';
import type { Page } from '@playwright/test';
import { expect, screenshotBothThemes, test, type DemoCredentials } from './fixtures';
import { downloadText } from './helpers';

/** A demo wallet retirement whose (project, token) pair is unique, so finalize claims exactly it. */
function uniqueRetirement(credentials: DemoCredentials, walletIndex: number) {
  const wallet = credentials.wallets[walletIndex]!;
  const key = (r: { projectAddress: string; tokenId: string }) => `${r.projectAddress}/${r.tokenId}`;
  const retirement = wallet.retirements.find((r) => wallet.retirements.filter((o) => key(o) === key(r)).length === 1)!;
  return { wallet, retirement };
}

async function openUnclaimedRetirement(page: Page, id: string) {
  await page.keyboard.press('Control+3');
  await expect(page.getByRole('heading', { level: 1, name: 'Retirements' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Claim' }).selectOption('unclaimed');
  const row = page.locator(`tr[data-retirement-id="${id}"]`);
  // The list pages on with "Show more" until the retirement is there.
  for (let i = 0; i < 20 && !(await row.isVisible()); i++) {
    await page.getByRole('button', { name: /^Show more/ }).click();
    await expect(page.getByRole('button', { name: /^Show more/ }).or(row)).toBeVisible();
  }
  await row.click();
  const details = page.getByRole('complementary', { name: 'Retirement details' });
  await expect(details).toContainText(id);
  return details;
}

test('finalize an unclaimed retirement by signing locally with a private key', async ({ app, desk }) => {
  const { wallet, retirement } = uniqueRetirement(desk.credentials, 0);
  const details = await openUnclaimedRetirement(app, retirement.id);
  await expect(details.getByText('Unclaimed')).toBeVisible();
  await details.getByRole('button', { name: 'Finalize with wallet…' }).click();
  const dialog = app.getByRole('dialog', { name: 'Finalize retirement' });

  await dialog.getByRole('radio', { name: 'Private key' }).check();
  await dialog.getByLabel('Private key (hex)').fill('0x1234');
  await dialog.getByRole('button', { name: 'Open wallet' }).click();
  await expect(dialog.getByRole('alert')).toContainText('not a valid private key');
  await dialog.getByLabel('Private key (hex)').fill(wallet.privateKey);
  await dialog.getByRole('button', { name: 'Open wallet' }).click();
  await expect(dialog.getByText(/Signing with wallet/)).toContainText(new Wallet(wallet.privateKey).address);

  const fields = { beneficiary: 'Ada Lovelace Foundation', comment: 'Claimed from the desk', reason: 'Voluntary offsetting', projectAddress: retirement.projectAddress, tokenId: retirement.tokenId };
  await dialog.getByLabel('Beneficiary').fill(fields.beneficiary);
  await dialog.getByLabel('Reason').fill(fields.reason);
  await dialog.getByLabel('Comment').fill(fields.comment);
  await dialog.getByLabel('Project contract address').fill(fields.projectAddress);
  await dialog.getByLabel('Token id').fill(fields.tokenId);
  await dialog.getByRole('button', { name: 'Review what will be signed' }).click();
  // Exactly the message the registry verifies is shown before signing.
  const expected = [fields.beneficiary, fields.comment, fields.reason, fields.projectAddress, fields.tokenId].join(';;');
  await expect(dialog.getByLabel('Message to sign')).toHaveText(expected);
  await screenshotBothThemes(app, 'finalize-review');
  await dialog.getByRole('button', { name: 'Sign and finalize' }).click();
  await expect(dialog.getByText('Finalized.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Done' }).click();

  // Now claimed, in full, with a certificate naming the beneficiary.
  await expect(details.getByText('Claimed', { exact: true })).toBeVisible();
  await expect(details).toContainText(fields.beneficiary);
  const { path } = await downloadText(app, details.getByRole('button', { name: 'Download certificate (PDF)' }));
  expect(execFileSync('pdftotext', [path, '-'], { encoding: 'utf8' })).toContain(fields.beneficiary);
  // The key was never stored by the page.
  const stored = await app.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
  expect(stored.toLowerCase()).not.toContain(wallet.privateKey.slice(2).toLowerCase());
});

test('finalize with an encrypted keystore kept for the session, decrypted off the UI thread', async ({ app, desk }, testInfo) => {
  const { wallet, retirement } = uniqueRetirement(desk.credentials, 1);
  // A keystore as a wallet would export it (light scrypt so the test stays quick).
  const keystore = await encryptKeystoreJson({ address: wallet.address, privateKey: wallet.privateKey }, 'correct horse battery', { scrypt: { N: 1 << 12 } });
  const keystorePath = join(testInfo.outputDir, 'wallet-keystore.json');
  mkdirSync(testInfo.outputDir, { recursive: true });
  writeFileSync(keystorePath, keystore);

  const details = await openUnclaimedRetirement(app, retirement.id);
  await details.getByRole('button', { name: 'Finalize with wallet…' }).click();
  const dialog = app.getByRole('dialog', { name: 'Finalize retirement' });
  await dialog.getByLabel('Keystore file (JSON)').setInputFiles(keystorePath);
  await dialog.getByLabel('Keystore password').fill('wrong password');
  await dialog.getByRole('button', { name: 'Open wallet' }).click();
  await expect(dialog.getByRole('alert')).toContainText('The password does not open this keystore.');
  await dialog.getByLabel('Keystore password').fill('correct horse battery');
  await dialog.getByRole('checkbox', { name: /Keep this wallet for this session/ }).check();
  await dialog.getByRole('button', { name: 'Open wallet' }).click();
  await expect(dialog.getByText(/Signing with wallet/)).toContainText(wallet.address, { ignoreCase: true });

  // Only the encrypted keystore is kept, in sessionStorage; nothing in localStorage.
  const storage = await app.evaluate(() => ({ local: localStorage.length, session: Object.values({ ...sessionStorage }) }));
  expect(storage.local).toBe(0);
  expect(storage.session).toContain(keystore);
  expect(storage.session.join('').toLowerCase()).not.toContain(wallet.privateKey.slice(2).toLowerCase());

  await dialog.getByLabel('Beneficiary').fill('Grace Hopper Trust');
  await dialog.getByLabel('Reason').fill('Net zero 2030');
  await dialog.getByLabel('Project contract address').fill(retirement.projectAddress);
  await dialog.getByLabel('Token id').fill(retirement.tokenId);
  await dialog.getByRole('button', { name: 'Review what will be signed' }).click();
  await expect(dialog.getByLabel('Message to sign')).toHaveText(['Grace Hopper Trust', '', 'Net zero 2030', retirement.projectAddress, retirement.tokenId].join(';;'));
  await dialog.getByRole('button', { name: 'Sign and finalize' }).click();
  await expect(dialog.getByText('Finalized.')).toBeVisible();
});
