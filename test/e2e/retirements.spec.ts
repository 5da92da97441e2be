// Retirements: finalizing an unclaimed on-chain retirement by signing locally with the owner's
// demo wallet (private key, and an encrypted keystore kept for the session), then its certificate.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encryptKeystoreJson, Wallet } from 'ethers';
import type { Download, Page } from '@playwright/test';
import { expect, screenshotBothThemes, test, type DemoCredentials } from './fixtures';
import { downloadText, scrollRetirementsTo, scrollToRetirement, shownRetirementRows, waitForRowsInView } from './helpers';

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
  // The virtualized list reads its pages as it scrolls, until the retirement is there.
  const row = await scrollToRetirement(page, id);
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

  const fields = {
    beneficiary: 'Ada Lovelace Foundation',
    comment: 'Claimed from the desk',
    reason: 'Voluntary offsetting',
    projectAddress: retirement.projectAddress,
    tokenId: retirement.tokenId,
  };
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
  const keystore = await encryptKeystoreJson({ address: wallet.address, privateKey: wallet.privateKey }, 'correct horse battery', {
    scrypt: { N: 1 << 12 },
  });
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

  // Only an encrypted keystore is kept, in sessionStorage, re-encrypted with the desk's own scrypt
  // settings (N = 2^17), not the file's light ones; localStorage holds only the desk's session token.
  const storage = await app.evaluate(() => ({
    local: Object.keys({ ...localStorage }),
    session: Object.values({ ...sessionStorage }),
    kept: sessionStorage.getItem('registryDesk.walletKeystore'),
  }));
  expect(storage.local).toEqual(['registry-desk.csrf']);
  expect(storage.session).not.toContain(keystore);
  const kept = JSON.parse(storage.kept ?? '{}') as { address?: string; Crypto?: { kdfparams: { n: number } } };
  expect(kept.Crypto?.kdfparams.n).toBe(2 ** 17);
  expect(`0x${kept.address ?? ''}`.toLowerCase()).toBe(wallet.address.toLowerCase());
  expect(storage.session.join('').toLowerCase()).not.toContain(wallet.privateKey.slice(2).toLowerCase());

  await dialog.getByLabel('Beneficiary').fill('Grace Hopper Trust');
  await dialog.getByLabel('Reason').fill('Net zero 2030');
  await dialog.getByLabel('Project contract address').fill(retirement.projectAddress);
  await dialog.getByLabel('Token id').fill(retirement.tokenId);
  await dialog.getByRole('button', { name: 'Review what will be signed' }).click();
  await expect(dialog.getByLabel('Message to sign')).toHaveText(
    ['Grace Hopper Trust', '', 'Net zero 2030', retirement.projectAddress, retirement.tokenId].join(';;'),
  );
  await dialog.getByRole('button', { name: 'Sign and finalize' }).click();
  await expect(dialog.getByText('Finalized.')).toBeVisible();
});

/** The count under the Retirements heading. */
const retirementCount = (page: Page) => page.getByRole('heading', { level: 1, name: 'Retirements' }).locator('xpath=following-sibling::p');

test('sort retirements from the column headers, by keyboard too, and keep the order when coming back', async ({ app }) => {
  await app.keyboard.press('Control+3');
  const table = app.getByRole('table', { name: 'Retirements' });
  await waitForRowsInView(app, 'Retirements');
  const header = (name: string) => table.getByRole('columnheader', { name });
  // Newest first by default.
  await expect(header('Date')).toHaveAttribute('aria-sort', 'descending');
  await expect(header('Amount')).not.toHaveAttribute('aria-sort');

  // Amount: largest first, then a second click reverses. (The header changes as the new order is
  // asked for; the rows in view are then those of the new order once they are drawn.)
  await header('Amount').getByRole('button').click();
  await expect(header('Amount')).toHaveAttribute('aria-sort', 'descending');
  await expect(header('Date')).not.toHaveAttribute('aria-sort');
  await waitForRowsInView(app, 'Retirements');
  const largestFirst = (await shownRetirementRows(app)).map((r) => r.amount);
  expect(largestFirst.length).toBeGreaterThan(5);
  expect(largestFirst).toEqual([...largestFirst].sort((a, b) => b - a));
  await header('Amount').getByRole('button').click();
  await expect(header('Amount')).toHaveAttribute('aria-sort', 'ascending');
  await waitForRowsInView(app, 'Retirements');
  const smallestFirst = (await shownRetirementRows(app)).map((r) => r.amount);
  expect(smallestFirst).toEqual([...smallestFirst].sort((a, b) => a - b));

  // The keyboard: Tab reaches the header buttons, Enter sorts.
  await header('Date').getByRole('button').focus();
  await app.keyboard.press('Enter');
  await expect(header('Date')).toHaveAttribute('aria-sort', 'descending');
  await app.keyboard.press('Enter');
  await expect(header('Date')).toHaveAttribute('aria-sort', 'ascending');
  await expect(header('Date').getByRole('button')).toBeFocused();
  await screenshotBothThemes(app, 'retirements-sorted');

  // Typing a search from the default order sorts by relevance; a column header leaves it; the
  // toggle goes back to it; clearing the search leaves relevance for the default order.
  const relevance = app.getByRole('button', { name: 'Sort by relevance' });
  await expect(relevance).toBeDisabled();
  await header('Date').getByRole('button').click(); // back to the default: newest first
  await expect(header('Date')).toHaveAttribute('aria-sort', 'descending');
  // (a new order empties the list until its first page is read: wait for the rows of this one)
  await waitForRowsInView(app, 'Retirements');
  const [first] = await shownRetirementRows(app).then((rows) => rows.filter((r) => r.claimed));
  const word = first!.beneficiary.split(/\s+/).sort((a, b) => b.length - a.length)[0]!;
  await app.getByRole('searchbox', { name: 'Search retirements' }).fill(word);
  await app.waitForFunction((w) => document.documentElement.dataset.retirementsQuery === w, word);
  await expect(relevance).toHaveAttribute('aria-pressed', 'true');
  await expect(table.locator('th[aria-sort]')).toHaveCount(0);
  await header('Beneficiary').getByRole('button').click();
  await expect(header('Beneficiary')).toHaveAttribute('aria-sort', 'ascending');
  await expect(relevance).toHaveAttribute('aria-pressed', 'false');
  await relevance.click();
  await expect(relevance).toHaveAttribute('aria-pressed', 'true');
  await expect(table.locator('th[aria-sort]')).toHaveCount(0);
  await app.getByRole('searchbox', { name: 'Search retirements' }).fill('');
  await app.waitForFunction(() => document.documentElement.dataset.retirementsQuery === '');
  await expect(header('Date')).toHaveAttribute('aria-sort', 'descending');
  await expect(relevance).toBeDisabled();

  // The chosen order survives going to another screen and back.
  await header('Amount').getByRole('button').click();
  await expect(header('Amount')).toHaveAttribute('aria-sort', 'descending');
  await waitForRowsInView(app, 'Retirements');
  const before = await shownRetirementRows(app);
  await app.keyboard.press('Control+1');
  await expect(app.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();
  await app.keyboard.press('Control+3');
  await expect(header('Amount')).toHaveAttribute('aria-sort', 'descending');
  await waitForRowsInView(app, 'Retirements');
  expect((await shownRetirementRows(app)).slice(0, 5).map((r) => r.id)).toEqual(before.slice(0, 5).map((r) => r.id));
});

test('download certificates of retirements selected far apart in the virtualized list', async ({ app }) => {
  await app.keyboard.press('Control+3');
  await app.getByRole('combobox', { name: 'Claim' }).selectOption('claimed');
  await app.waitForFunction(() => document.documentElement.dataset.retirementsTotal !== undefined);
  await waitForRowsInView(app, 'Retirements');
  const table = app.getByRole('table', { name: 'Retirements' });
  // Only the rows in view (and a few more) are in the page.
  expect(await table.locator('tbody tr[data-retirement-id]').count()).toBeLessThan(60);

  const checkbox = (id: string) => table.locator(`tr[data-retirement-id="${id}"] input[type="checkbox"]`);
  const [a, b] = await shownRetirementRows(app);
  await checkbox(a!.id).check();
  await checkbox(b!.id).check();
  // Far down the list: the first two rows are no longer drawn.
  await scrollRetirementsTo(app, 'bottom');
  const far = (await shownRetirementRows(app)).at(-1)!;
  expect(far.index).toBeGreaterThan(200);
  await expect(table.locator(`tr[data-retirement-id="${a!.id}"]`)).toHaveCount(0);
  await checkbox(far.id).check();
  await expect(app.getByRole('button', { name: 'Download certificates (3)' })).toBeVisible();
  // Back at the top the first two are still selected.
  await scrollRetirementsTo(app, 'top');
  await expect(checkbox(a!.id)).toBeChecked();
  await expect(checkbox(b!.id)).toBeChecked();

  const downloads: Download[] = [];
  app.on('download', (download) => downloads.push(download));
  await app.getByRole('button', { name: 'Download certificates (3)' }).click();
  // The selection is cleared once every certificate was saved, and the desk says what it saved where.
  await expect(app.getByRole('button', { name: /^Download certificates/ })).toHaveCount(0);
  await expect(app.getByRole('status').filter({ hasText: /^Saved 3 certificates as retirement-/ })).toHaveText(
    /^Saved 3 certificates as (retirement-[0-9a-f-]+\.pdf, ){3}to this browser's downloads folder\.$/,
  );
  await expect(checkbox(a!.id)).not.toBeChecked();
  expect(downloads.map((d) => d.suggestedFilename()).sort()).toEqual([a!.id, b!.id, far.id].map((id) => `retirement-${id}.pdf`).sort());
  for (const [download, row] of [[downloads.find((d) => d.suggestedFilename().includes(far.id))!, far]] as const) {
    expect(execFileSync('pdftotext', [await download.path(), '-'], { encoding: 'utf8' })).toContain(row.beneficiary);
  }
});

test.describe('a list larger than the desk counts', () => {
  // About 16,000 retirements, over 10,000 of them claimed: more than the desk counts exactly when filtered.
  test.use({ deskOptions: { registry: 'remote', scale: 16 } });

  test('shows 10,000+ claimed retirements and scrolls on past 10,000 to the exact end', async ({ app }) => {
    await app.keyboard.press('Control+3');
    await app.waitForFunction(() => document.documentElement.dataset.retirementsQuery === '');
    // Unfiltered, the count is exact.
    const all = Number(await app.evaluate(() => document.documentElement.dataset.retirementsTotal));
    expect(all).toBeGreaterThan(15_000);
    await expect(retirementCount(app)).toHaveText(`${all.toLocaleString('en-US')} retirements`);
    await app.getByRole('combobox', { name: 'Claim' }).selectOption('unclaimed');
    await expect(retirementCount(app)).not.toHaveText(`${all.toLocaleString('en-US')} retirements`);
    await expect(retirementCount(app)).toHaveText(/^[\d,]+ retirements$/);
    const unclaimed = Number(await app.evaluate(() => document.documentElement.dataset.retirementsTotal));
    expect(unclaimed).toBeLessThan(10_000);

    // Claimed: more than the desk counts, so a lower bound, never shown as an exact number.
    await app.getByRole('combobox', { name: 'Claim' }).selectOption('claimed');
    await expect(retirementCount(app)).toHaveText('10,000+ retirements');
    await expect(app.locator('html')).toHaveAttribute('data-retirements-total-is-lower-bound', 'true');
    const table = app.getByRole('table', { name: 'Retirements' });
    await expect(table).toHaveAttribute('aria-rowcount', '-1');
    await screenshotBothThemes(app, 'retirements-lower-bound');

    // Scrolling to the end reads page after page past 10,000 until the list ends; then the exact
    // number is known and shown.
    for (let i = 0; i < 40 && (await retirementCount(app).textContent())?.includes('+'); i++) await scrollRetirementsTo(app, 'bottom');
    const claimed = all - unclaimed;
    await expect(retirementCount(app)).toHaveText(`${claimed.toLocaleString('en-US')} retirements`);
    await expect(table).toHaveAttribute('aria-rowcount', String(claimed + 1));
    await scrollRetirementsTo(app, 'bottom');
    const last = (await shownRetirementRows(app)).at(-1)!;
    expect(last.index).toBe(claimed - 1);
    expect(last.claimed).toBe(true);
  });
});

test('finalize knows the retirement: found by id, contract and token filled in, the wallet checked first', async ({ app, desk }) => {
  const { wallet, retirement } = uniqueRetirement(desk.credentials, 0);
  const stranger = desk.credentials.wallets.find((w) => w.address.toLowerCase() !== wallet.address.toLowerCase())!;

  // Found by its id: exactly that retirement.
  await app.keyboard.press('Control+3');
  await app.getByRole('searchbox', { name: 'Search retirements' }).fill(retirement.id);
  await app.waitForFunction((q) => document.documentElement.dataset.retirementsQuery === q, retirement.id);
  const rows = app.getByRole('table', { name: 'Retirements' }).locator('tr[data-retirement-id]');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute('data-retirement-id', retirement.id);
  await rows.first().click();
  const details = app.getByRole('complementary', { name: 'Retirement details' });
  await details.getByRole('button', { name: 'Finalize with wallet…' }).click();
  const dialog = app.getByRole('dialog', { name: 'Finalize retirement' });
  await expect(dialog).toContainText(retirement.id);

  // Another wallet: refused before anything can be signed.
  await dialog.getByRole('radio', { name: 'Private key' }).check();
  await dialog.getByLabel('Private key (hex)').fill(stranger.privateKey);
  await dialog.getByRole('button', { name: 'Open wallet' }).click();
  await expect(dialog.getByText('This wallet did not make this retirement: open the wallet that retired these credits.')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Review what will be signed' })).toBeDisabled();

  // The demo's own keys, where the wallet is asked for: the credentials file itself, taken as the
  // keystore, opens the owner's wallet (no password); so does "Use the demo wallet".
  const owner = new Wallet(wallet.privateKey).address;
  await dialog.getByRole('button', { name: 'Use another wallet' }).click();
  await expect(dialog.getByRole('group', { name: 'Demo wallet' })).toContainText('demo-credentials.json');
  await dialog.getByLabel('Keystore file (JSON)').setInputFiles({
    name: 'demo-credentials.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(desk.credentials)),
  });
  await expect(dialog.getByText(/Signing with wallet/)).toContainText(owner);
  await dialog.getByRole('button', { name: 'Use another wallet' }).click();
  await dialog.getByRole('button', { name: 'Use the demo wallet' }).click();
  await expect(dialog.getByText(/Signing with wallet/)).toContainText(owner);
  // The owner's wallet: accepted; the project's contract address is filled in and its token listed.
  await expect(dialog.getByRole('button', { name: 'Review what will be signed' })).toBeEnabled();
  await expect(dialog.getByLabel('Project contract address')).toHaveValue(retirement.projectAddress);
  // Its token filled in, even of a project with several: the embedded demo's operator account keeps
  // the credit histories, where the retirement's own movement names the credit it took.
  await expect(dialog.getByLabel('Token id')).toHaveValue(retirement.tokenId);
  await expect(dialog.getByText(/is the token this retirement took, as the registry's records the desk keeps show/)).toContainText(
    `Filled in: ${retirement.tokenId} (`,
  );
  await screenshotBothThemes(app, 'finalize-prefilled');
});
