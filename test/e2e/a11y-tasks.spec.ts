// Issue 19 item 7: the main tasks by keyboard alone, asserting where focus is after every step and
// what the announcer said, with axe (WCAG 2.1 AA and best practice) on every dialog step, light and
// dark: no critical or serious violation. Reserve → finish as transfer and retire, then add a remote
// connection; finalize with a wallet. (Finish as transfer, cancel, and finding a retirement and
// downloading its certificate: a11y-focus, a11y-announcer and a11y-details.) No mouse events at all.
import type { Locator, Page } from '@playwright/test';
import { Wallet } from 'ethers';
import { axeOn } from './axe';
import { expect, test } from './fixtures';
import { scrollToRetirement } from './helpers';

async function press(page: Page, locator: Locator, key = 'Enter') {
  await locator.focus();
  await page.keyboard.press(key);
}

async function typeInto(page: Page, locator: Locator, text: string) {
  await locator.focus();
  await page.keyboard.type(text);
}

/** Critical and serious axe violations in what `selector` matches (the open dialog), light and dark. */
async function axe(page: Page, step: string, found: string[], selector = 'dialog[open]') {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const results = await axeOn(page).include(selector).analyze();
    for (const v of results.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious'))
      found.push(`${step} ${colorScheme}: ${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }
  await page.emulateMedia({ colorScheme: null });
}

const announcer = (page: Page) => page.locator('[data-announcer]');

test.describe('warehouse and connections', () => {
  test.use({ deskOptions: { registry: 'remote', scale: 1 } });

  test('reserve, finish as transfer and retire, add a remote connection', async ({ app, desk }) => {
    const found: string[] = [];
    await app.keyboard.press('Control+4');
    const firstRow = app.getByRole('table', { name: 'Warehouse credits' }).getByRole('row').nth(1);
    const serialization = (await firstRow.getByRole('cell').nth(1).textContent())!;
    const reserveButton = firstRow.getByRole('button', { name: /^Reserve/ });

    // Reserve: opens on the amount, the amount understood is shown, Enter reserves and it is said.
    await press(app, reserveButton);
    const reserve = app.getByRole('dialog', { name: 'Reserve credits' });
    const amount = reserve.getByLabel('Amount to reserve (tonnes)');
    await expect(amount).toBeFocused();
    await axe(app, 'Reserve, empty', found);
    await app.keyboard.type('2');
    await expect(reserve.getByTestId('understood-amount')).toContainText('Understood as 2 t');
    await axe(app, 'Reserve, amount understood', found);
    await app.keyboard.press('Enter');
    await expect(reserve).toBeHidden();
    await expect(reserveButton).toBeFocused();
    await expect(announcer(app)).toHaveText(`Reserved 2 t of ${serialization} for 10 minutes: it is highlighted under Reservations.`);

    // Finish: Transfer, then (arrow) Transfer and retire; the receiver, beneficiary and reason.
    const row = app.getByRole('table', { name: 'Reservations' }).getByRole('row', { name: `Reservation of 2 t of ${serialization}` });
    await press(app, row.getByRole('button', { name: 'Finish…' }));
    const finish = app.getByRole('dialog', { name: /Finish reservation|Outcome/ });
    const transfer = finish.getByRole('radio', { name: 'Transfer', exact: true });
    await expect(transfer).toBeFocused();
    await axe(app, 'Finish, nothing chosen', found);
    await app.keyboard.press('Space');
    await expect(transfer).toBeChecked();
    await axe(app, 'Finish, transfer', found);
    await app.keyboard.press('ArrowDown');
    const retire = finish.getByRole('radio', { name: 'Transfer and retire' });
    await expect(retire).toBeFocused();
    await expect(retire).toBeChecked();
    await expect(finish.getByRole('heading', { name: 'Finish reservation: transfer and retire' })).toBeVisible();
    await press(app, finish.getByRole('button', { name: 'Review' }));
    await expect(finish.getByLabel('Receiving organization')).toBeFocused();
    await expect(announcer(app)).toContainText('Not ready for review: 3 fields need attention.');
    await axe(app, 'Finish, transfer and retire, with errors', found);
    await finish.getByLabel('Receiving organization').selectOption({ index: 1 });
    await typeInto(app, finish.getByLabel('Beneficiary'), 'Keyboard Foundation');
    await typeInto(app, finish.getByLabel('Retirement reason'), 'Voluntary offsetting');
    await press(app, finish.getByRole('button', { name: 'Review' }));
    await expect(finish.getByRole('heading', { name: /Please confirm/ })).toBeFocused();
    await expect(finish.getByRole('listitem').filter({ hasText: 'Keyboard Foundation' })).toBeVisible();
    await axe(app, 'Finish, confirmation', found);
    await press(app, finish.getByRole('button', { name: 'Transfer and retire' }));
    const outcome = finish.getByRole('status').filter({ hasText: /retired|processing/ });
    await expect(outcome).toBeFocused();
    await expect(outcome).toContainText('The credits were transferred and retired.');
    await axe(app, 'Finish, outcome', found);
    await press(app, finish.getByRole('button', { name: 'Close', exact: true }).last());
    await expect(finish).toBeHidden();
    await expect(row).toBeFocused();

    // Add a remote connection (the same registry again, under another name).
    await app.keyboard.press('Control+6');
    const add = app.getByRole('button', { name: 'Add remote connection…' });
    await press(app, add);
    const form = app.getByRole('form', { name: 'Add a remote connection' });
    await expect(form.getByLabel('Connection name')).toBeFocused();
    await app.keyboard.type('Keyboard registry');
    await form.getByLabel('Registry address').focus();
    await app.keyboard.press('Control+a');
    await app.keyboard.type(desk.registry!.url);
    await typeInto(app, form.getByLabel('App id'), desk.credentials.app.id);
    await form.getByLabel('Private key file').setInputFiles({
      name: 'app-key.pem',
      mimeType: 'application/x-pem-file',
      buffer: Buffer.from(desk.credentials.app.privateKeyPem),
    });
    // Without an OS keychain here, the key goes to a passphrase-encrypted file once agreed.
    const passphrase = form.getByLabel('Passphrase for the key file');
    if (await passphrase.isVisible()) {
      await typeInto(app, passphrase, 'a long passphrase');
      await press(app, form.getByRole('checkbox', { name: 'Store the key in a passphrase-encrypted file' }), 'Space');
    }
    await axe(app, 'Add connection', found, 'form[aria-label="Add a remote connection"]');
    await press(app, form.getByRole('button', { name: 'Add connection' }));
    // the registry's log key, for review: the same button, now "Confirm and add", keeps the focus
    await expect(form.getByRole('group', { name: "The registry's log key" })).toContainText('fingerprint');
    await axe(app, 'Add connection: the log key', found, 'form[aria-label="Add a remote connection"]');
    await press(app, form.getByRole('button', { name: 'Confirm and add' }));
    await expect(form).toBeHidden();
    await expect(app.getByRole('region', { name: 'Connection Keyboard registry' })).toBeFocused();
    expect(found).toEqual([]);
  });
});

test('finalize with a wallet', async ({ app, desk }) => {
  const found: string[] = [];
  const wallet = desk.credentials.wallets[0]!;
  const key = (r: { projectAddress: string; tokenId: string }) => `${r.projectAddress}/${r.tokenId}`;
  const retirement = wallet.retirements.find((r) => wallet.retirements.filter((o) => key(o) === key(r)).length === 1)!;
  await app.keyboard.press('Control+3');
  await app.getByRole('combobox', { name: 'Claim' }).selectOption('unclaimed');
  const row = await scrollToRetirement(app, retirement.id);
  await press(app, row);
  const details = app.getByRole('complementary', { name: 'Retirement details' });
  await expect(details.getByRole('heading', { name: 'Retirement' })).toBeFocused();
  await expect(details).toContainText(retirement.id);
  await press(app, details.getByRole('button', { name: 'Finalize with wallet…' }));

  // 1. The wallet: opens on the checked way to open it; the arrow chooses the private key.
  const dialog = app.getByRole('dialog', { name: 'Finalize retirement' });
  await expect(dialog.getByRole('radio', { checked: true })).toBeFocused();
  await axe(app, 'Finalize, wallet', found);
  await app.keyboard.press('ArrowDown');
  await typeInto(app, dialog.getByLabel('Private key (hex)'), wallet.privateKey);
  await app.keyboard.press('Enter');
  await expect(dialog.getByText(/Signing with wallet/)).toContainText(new Wallet(wallet.privateKey).address);

  // 2. The details: on the first field; Review with it empty says what is missing.
  const beneficiary = dialog.getByLabel('Beneficiary');
  await expect(beneficiary).toBeFocused();
  await axe(app, 'Finalize, details', found);
  await expect(dialog.getByRole('button', { name: 'Review what will be signed' })).not.toHaveAttribute('disabled');
  await press(app, dialog.getByRole('button', { name: 'Review what will be signed' }));
  await expect(beneficiary).toBeFocused();
  await expect(announcer(app)).toContainText(/^Not ready for review: \d fields need attention\. Enter the name the certificate is for\./);
  await app.keyboard.type('Keyboard Trust');
  await typeInto(app, dialog.getByLabel('Reason'), 'Voluntary offsetting');
  // The contract is filled in from the desk's data, the token id when the project has one token only.
  const contract = dialog.getByLabel('Project contract address');
  if ((await contract.inputValue()) === '') await typeInto(app, contract, retirement.projectAddress);
  const tokenId = dialog.getByLabel('Token id');
  if ((await tokenId.inputValue()) === '') await typeInto(app, tokenId, retirement.tokenId);
  await press(app, dialog.getByRole('button', { name: 'Review what will be signed' }));

  // 3. Review: its heading; signing keeps focus on the button, then "Finalized." has it.
  await expect(dialog.getByRole('heading', { name: '3. Review and sign' })).toBeFocused();
  await axe(app, 'Finalize, review', found);
  await press(app, dialog.getByRole('button', { name: 'Sign and finalize' }));
  const done = dialog.getByRole('status').filter({ hasText: 'Finalized.' });
  await expect(done).toBeFocused();
  await axe(app, 'Finalize, done', found);
  // Done: the Finalize button is gone (claimed now), so focus goes to the certificate.
  await press(app, dialog.getByRole('button', { name: 'Done' }));
  await expect(dialog).toBeHidden();
  await expect(details.getByRole('button', { name: 'Download certificate (PDF)' })).toBeFocused();
  expect(found).toEqual([]);
});
