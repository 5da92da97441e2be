// The credit's hint names the account it is held in, ending the sentence once: an organization
// whose name ends with a full stop ("Rainforest Restoration Ltda.") read "… Ltda.." before. A
// transfer to a wallet names the wallet in its heading, and its review's dry run (an audit entry in
// the registry each time) is asked once, not again when the write and the syncs after it are heard.
import { afterEach, beforeEach, expect, it } from 'vitest';
import axe from 'axe-core';
import { page, userEvent } from 'vitest/browser';
import { TransfersScreen } from '@renderer/screens/back-office/TransfersScreen';
import { useBackOffice } from '@renderer/stores/backOffice';
import type { SyncStatus } from '@shared/desk/api';
import { administratorSession } from './back-office-session';
import { render } from './render';
import { deskError, installScriptedBridge } from './scripted-bridge';

const desk = installScriptedBridge();

beforeEach(() => useBackOffice.setState({ session: administratorSession }));
afterEach(() => {
  useBackOffice.setState({ session: null });
  desk.reset();
});

it('the credit hint ends with one full stop after a name that has its own', async () => {
  desk.answer('backOffice.read', (input) => {
    const { endpoint } = input as { endpoint: string };
    const organization = {
      id: 'org-1',
      fullName: 'Rainforest Restoration Ltda.',
      isRegistry: false,
      accounts: [{ kind: 'inventory', balances: [{ creditId: 'cr-1', serialization: 'BR-2030-0001', amountGrams: 1_000_000 }] }],
    };
    const data =
      endpoint === 'operatorListAccounts' ? { accounts: [], nextCursor: null } : { organizations: [organization], nextCursor: null };
    return { data, source: 'registry', fetchedAt: '2024-01-02T00:00:00.000Z' };
  });
  render(<TransfersScreen />);
  await page.getByLabelText('From', { exact: true }).selectOptions('inventory');
  await page.getByLabelText('From organization').selectOptions('org-1');

  await expect
    .element(page.getByText(/^Held in the inventory of/))
    .toHaveTextContent(/^Held in the inventory of Rainforest Restoration Ltda\.$/);
});

it('credits are moved from organizations holding some there, not from every buyer and verifier', async () => {
  const held = (kind: string) => [{ kind, balances: [{ creditId: 'cr-1', serialization: 'KE-2031-0001', amountGrams: 1_000_000 }] }];
  const organizations = [
    { id: 'org-grower', fullName: 'Baobab Roots', isRegistry: false, accounts: held('inventory') },
    { id: 'org-buyer', fullName: 'Harbour Buyers', isRegistry: false, accounts: [{ kind: 'inventory', balances: [] }] },
    { id: 'org-verifier', fullName: 'Savanna Verification', isRegistry: false, accounts: [] },
    { id: 'org-store', fullName: 'Coast Warehouse Co', isRegistry: false, accounts: held('warehouse') },
  ];
  desk.answer('backOffice.read', (input) => {
    const { endpoint } = input as { endpoint: string };
    const data = endpoint === 'operatorListAccounts' ? { accounts: [], nextCursor: null } : { organizations, nextCursor: null };
    return { data, source: 'registry', fetchedAt: '2024-01-02T00:00:00.000Z' };
  });
  render(<TransfersScreen />);
  const from = page.getByLabelText('From organization');
  await expect.element(from).toHaveTextContent('Baobab Roots');
  const names = () => [...(from.element() as HTMLSelectElement).options].map((o) => o.text);
  expect(names()).toEqual(['Choose an organization…', 'Baobab Roots']);
  // Out of a warehouse: those holding credits in their warehouse.
  await page.getByRole('radio', { name: /Out of a warehouse/ }).click();
  await expect.element(page.getByLabelText('Organization', { exact: true })).toHaveTextContent('Coast Warehouse Co');
  expect([...(page.getByLabelText('Organization', { exact: true }).element() as HTMLSelectElement).options].map((o) => o.text)).toEqual([
    'Choose an organization…',
    'Coast Warehouse Co',
  ]);
  // The destination of a transfer may be any organization.
  await page.getByRole('radio', { name: /Between accounts/ }).click();
  await page.getByLabelText('To', { exact: true }).selectOptions('inventory');
  await expect.element(page.getByLabelText('To organization')).toHaveTextContent('Savanna Verification');
});

const WALLET = '0x12ab34cd56ef78900000000000000000000fe9c1';
const organization = {
  id: 'org-1',
  fullName: 'Baobab Roots',
  isRegistry: false,
  accounts: [{ kind: 'inventory', balances: [{ creditId: 'cr-1', serialization: 'KE-2031-0001', amountGrams: 5_000_000 }] }],
};
const account = (kind: string, walletAddress: string | null) => ({
  id: null,
  kind,
  organizationId: kind === 'inventory' ? 'org-1' : null,
  organizationName: kind === 'inventory' ? 'Baobab Roots' : null,
  walletAddress,
});
const preview = {
  operation: 'transfer',
  amountGrams: 2_000_000,
  credits: [{ creditId: 'cr-1', serialization: 'KE-2031-0001', projectId: 'p-1', vintage: '2031', type: 'exPost', isNew: false }],
  toBufferGrams: 0,
  bufferBasisPoints: null,
  movements: [],
  balances: [
    { account: account('inventory', null), creditId: 'cr-1', serialization: 'KE-2031-0001', beforeGrams: 5_000_000, afterGrams: 3_000_000 },
    { account: account('wallet', WALLET), creditId: 'cr-1', serialization: 'KE-2031-0001', beforeGrams: 0, afterGrams: 2_000_000 },
  ],
};
const syncStatus: SyncStatus = {
  running: false,
  progress: null,
  lastSuccess: {},
  lastError: null,
  online: true,
  dataAsOf: null,
  runsEnded: { service: 'desk-1', count: 1 },
};

/** The scripted registry of a transfer of 2 t of one credit to a wallet; the transfer reviewed. */
async function reviewTransferToWallet() {
  desk.answer('backOffice.session', () => administratorSession);
  desk.answer('backOffice.read', (input) => {
    const { endpoint } = input as { endpoint: string };
    const data =
      endpoint === 'operatorPreview'
        ? preview
        : endpoint === 'operatorListAccounts'
          ? { accounts: [], nextCursor: null }
          : { organizations: [organization], nextCursor: null };
    return { data, source: 'registry', fetchedAt: '2024-01-02T00:00:00.000Z' };
  });
  desk.answer('backOffice.write', () => ({ outcome: 'done', data: { movements: [] } }));
  render(<TransfersScreen />);
  await page.getByLabelText('From organization').selectOptions('org-1');
  await page.getByLabelText('Credit', { exact: true }).selectOptions('cr-1');
  await page.getByLabelText('Amount (tonnes)').fill('2');
  await page.getByLabelText('To', { exact: true }).selectOptions('wallet');
  await page.getByLabelText('Wallet address').fill(WALLET);
  await page.getByRole('button', { name: 'Review' }).click();
  await expect.element(page.getByRole('table', { name: 'Balances before and after' })).toBeVisible();
}

it('a transfer to a wallet names the wallet in its heading, short for the eye and whole for a screen reader', async () => {
  await reviewTransferToWallet();
  const heading = page.getByRole('heading', { level: 2 });
  await expect.element(heading).toHaveAccessibleName(`Review the transfer of 2 t of KE-2031-0001 to wallet ${WALLET}`);
  // two wallets can share the short form: it is only what the eye gets
  expect(heading.element().querySelector('[aria-hidden="true"]')?.textContent).toBe('0x12ab…e9c1');
  await page.getByRole('button', { name: 'Move 2 t' }).click();
  await expect.element(heading).toHaveAccessibleName(`Transferred 2 t of KE-2031-0001 to wallet ${WALLET}`);
});

it('the dry run is asked once for the one change reviewed, not again when the write and the syncs after it are heard', async () => {
  // The page hears the desk's events as the app does.
  const stop = useBackOffice.getState().start();
  try {
    await reviewTransferToWallet();
    const previews = () =>
      desk.calls.filter((c) => c.method === 'backOffice.read' && (c.input as { endpoint: string }).endpoint === 'operatorPreview');
    expect(previews()).toHaveLength(1);
    await page.getByRole('button', { name: 'Move 2 t' }).click();
    await expect.element(page.getByRole('status').filter({ hasText: 'Done' })).toBeVisible();
    desk.emit({ type: 'backOffice.changed', endpoint: 'operatorTransfer' });
    desk.emit({ type: 'backOffice.synced' });
    desk.emit({ type: 'sync.finished', status: syncStatus });
    desk.emit({ type: 'online.changed', online: true });
    // the lists around it follow the change (so the page did hear the events) ...
    const accountReads = () => desk.calls.filter((c) => (c.input as { endpoint?: string }).endpoint === 'operatorListAccounts').length;
    await expect.poll(accountReads).toBeGreaterThan(1);
    // ... and the review still shows what was confirmed, its dry run asked once
    await expect.element(page.getByRole('table', { name: 'Balances before and after' })).toBeVisible();
    expect(previews()).toHaveLength(1);
  } finally {
    stop();
  }
});

it('a move into a warehouse names whose warehouse it is', async () => {
  await reviewTransferToWallet();
  await page.getByRole('button', { name: 'Back to the form' }).click();
  await page.getByRole('radio', { name: /^Into a warehouse/ }).click();
  await page.getByLabelText('Organization', { exact: true }).selectOptions('org-1');
  await page.getByLabelText('Credit', { exact: true }).selectOptions('cr-1');
  await page.getByRole('button', { name: 'Review' }).click();
  await expect
    .element(page.getByRole('heading', { level: 2 }))
    .toHaveTextContent('Review the move of 2 t of KE-2031-0001 into the warehouse of Baobab Roots');
});

it('a review the registry refuses says why in words, once, with no "Try again" that would get the same answer', async () => {
  const refusal = 'The registry refused because of the current state: Not enough exPost-7-0xabc in the inventory of Baobab Roots';
  let answer: () => unknown = () => deskError('conflict', refusal);
  desk.answer('backOffice.session', () => administratorSession);
  desk.answer('backOffice.read', (input) => {
    const { endpoint } = input as { endpoint: string };
    if (endpoint === 'operatorPreview') return answer() as never;
    const data =
      endpoint === 'operatorListAccounts' ? { accounts: [], nextCursor: null } : { organizations: [organization], nextCursor: null };
    return { data, source: 'registry', fetchedAt: '2024-01-02T00:00:00.000Z' };
  });
  render(<TransfersScreen />);
  await page.getByLabelText('From organization').selectOptions('org-1');
  await page.getByLabelText('Credit', { exact: true }).selectOptions('cr-1');
  await page.getByLabelText('Amount (tonnes)').fill('2');
  await page.getByLabelText('To', { exact: true }).selectOptions('wallet');
  await page.getByLabelText('Wallet address').fill(WALLET);
  await page.getByRole('button', { name: 'Review' }).click();
  const alert = page.getByRole('alert');
  await expect
    .element(alert.getByText(/^The registry would refuse this/))
    .toHaveTextContent(
      'The registry would refuse this: Not enough exPost-7-0xabc in the inventory of Baobab Roots. Go back to the form to change it.',
    );
  expect(alert.getByRole('button', { name: 'Try again' }).query()).toBeNull();
  // the registry's own message stays under Details
  expect(alert.element().querySelector('details')?.textContent).toContain(refusal);

  // the registry could not be asked: that may change, so "Try again" is offered
  answer = () => deskError('offline', 'The registry cannot be reached');
  await page.getByRole('button', { name: 'Back to the form' }).click();
  await page.getByLabelText('Amount (tonnes)').fill('3');
  await page.getByRole('button', { name: 'Review' }).click();
  await expect.element(page.getByRole('alert').getByRole('button', { name: 'Try again' })).toBeVisible();
  await expect.element(page.getByRole('alert')).toHaveTextContent(/^The registry could not review this: The registry cannot be reached/);
});

it('a refusal about the amount is shown at the amount once back in the form, by name, the id kept under Details', async () => {
  const refusal =
    'The registry refused because of the current state: amount: not enough credits of KE-2031-0001 in the inventory of ' +
    'Baobab Roots, which holds 1 t of them (organization org-1)';
  desk.answer('backOffice.session', () => administratorSession);
  desk.answer('backOffice.read', (input) => {
    const { endpoint } = input as { endpoint: string };
    if (endpoint === 'operatorPreview') return deskError('conflict', refusal);
    const data =
      endpoint === 'operatorListAccounts' ? { accounts: [], nextCursor: null } : { organizations: [organization], nextCursor: null };
    return { data, source: 'registry', fetchedAt: '2024-01-02T00:00:00.000Z' };
  });
  render(<TransfersScreen />);
  await page.getByLabelText('From organization').selectOptions('org-1');
  await page.getByLabelText('Credit', { exact: true }).selectOptions('cr-1');
  await page.getByLabelText('Amount (tonnes)').fill('2');
  await page.getByRole('button', { name: 'Review' }).click();
  const said = 'Not enough credits of KE-2031-0001 in the inventory of Baobab Roots, which holds 1 t of them.';
  const alert = page.getByRole('alert');
  await expect
    .element(alert.getByText(/^The registry would refuse this/))
    .toHaveTextContent(
      'The registry would refuse this: Amount: not enough credits of KE-2031-0001 in the inventory of Baobab Roots, which holds 1 t of them. Go back to the form to change it.',
    );
  expect(alert.getByText(/^The registry would refuse this/).element().textContent).not.toContain('org-1');
  // the Details disclosure: reached and opened with the keyboard, and clean for axe (WCAG 2.1 AA)
  const details = alert.element().querySelector('details')!;
  const summary = alert.getByText('Details', { exact: true });
  (summary.element() as HTMLElement).focus();
  await expect.element(summary).toHaveFocus();
  await userEvent.keyboard('{Enter}');
  await expect.poll(() => details.open).toBe(true);
  const results = await axe.run(alert.element(), { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] });
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  await userEvent.keyboard('{Enter}');
  await expect.poll(() => details.open).toBe(false);
  expect(alert.element().querySelector('details')?.textContent).toContain('(organization org-1)');

  await page.getByRole('button', { name: 'Back to the form' }).click();
  const amount = page.getByLabelText('Amount (tonnes)');
  await expect.element(amount).toHaveAttribute('aria-invalid', 'true');
  await expect.element(amount).toHaveAccessibleDescription(said);
  // said once: beside the field, nowhere else in the form
  expect(document.body.textContent?.split('Not enough credits of').length).toBe(2);
  // a changed amount may be right: the registry's word on the old one goes
  await amount.fill('1');
  await expect.element(amount).not.toHaveAttribute('aria-invalid', 'true');
  expect(document.body.textContent).not.toContain('Not enough credits of');
});
