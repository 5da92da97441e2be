// The credit's hint names the account it is held in, ending the sentence once: an organization
// whose name ends with a full stop ("Rainforest Restoration Ltda.") read "… Ltda.." before.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { TransfersScreen } from '@renderer/screens/back-office/TransfersScreen';
import { useBackOffice } from '@renderer/stores/backOffice';
import { administratorSession } from './back-office-session';
import { render } from './render';
import { installScriptedBridge } from './scripted-bridge';

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
      accounts: [{ kind: 'inventory', balances: [] }],
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
