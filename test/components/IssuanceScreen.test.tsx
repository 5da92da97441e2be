// Issuance reviewed with fields left empty: every problem is shown at its field (the empty amount
// too: it once showed nothing, so a form whose only problem was the amount did nothing at all),
// focus goes to the first field to fix, and the problems are said; nothing is sent.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { IssuanceScreen } from '@renderer/screens/back-office/IssuanceScreen';
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

it('reviewing with the amount left empty says so at the amount, focuses the first field to fix, and sends nothing', async () => {
  desk.answer('backOffice.read', (input) => {
    const { endpoint } = input as { endpoint: string };
    const data = endpoint === 'operatorListProjects' ? { projects: [], nextCursor: null } : { organizations: [], nextCursor: null };
    return { data, source: 'registry', fetchedAt: '2024-01-02T00:00:00.000Z' };
  });
  render(<IssuanceScreen />);
  await page.getByRole('button', { name: 'Review issuance' }).click();

  await expect.element(page.getByText('Enter an amount in tonnes.')).toBeVisible();
  await expect.element(page.getByLabelText('Amount (tonnes)')).toHaveAttribute('aria-invalid', 'true');
  await expect.element(page.getByLabelText('Project')).toHaveFocus();
  expect(desk.calls.filter((c) => c.method === 'backOffice.write')).toEqual([]);
});
