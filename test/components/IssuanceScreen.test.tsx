// Issuance reviewed with fields left empty: every problem is shown at its field (the empty amount
// too: it once showed nothing, so a form whose only problem was the amount did nothing at all),
// focus goes to the first field to fix, and the problems are said; nothing is sent. The monitoring
// period is typed as the desk's locale writes dates: a native date field followed the browser's
// language instead (11/28/2026 in a de-DE desk that writes 28.11.2026 everywhere else).
import { afterEach, beforeEach, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { IssuanceScreen } from '@renderer/screens/back-office/IssuanceScreen';
import { dateHint, dateShape, formatLocaleDateInput } from '@renderer/lib/localeDate';
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

const answerEmptyLists = () =>
  desk.answer('backOffice.read', (input) => {
    const { endpoint } = input as { endpoint: string };
    const data = endpoint === 'operatorListProjects' ? { projects: [], nextCursor: null } : { organizations: [], nextCursor: null };
    return { data, source: 'registry', fetchedAt: '2024-01-02T00:00:00.000Z' };
  });

it('the monitoring period is typed as the desk locale writes dates, and a date of another form is refused in words', async () => {
  answerEmptyLists();
  render(<IssuanceScreen />);
  const lastYear = new Date().getFullYear() - 1;
  const start = page.getByLabelText('Monitoring period start');
  const end = page.getByLabelText('Monitoring period end');
  await expect.element(start).toHaveValue(formatLocaleDateInput(`${lastYear}-01-01`));
  expect(start.element().getAttribute('type')).not.toBe('date');
  await expect.element(start).toHaveAccessibleDescription(dateHint());

  // the locale's separator swapped for another is not guessed at
  const other = dateShape().separator === '.' ? '/' : '.';
  await end.fill(['12', '31', String(lastYear)].join(other));
  await page.getByRole('button', { name: 'Review issuance' }).click();
  await expect.element(end).toHaveAttribute('aria-invalid', 'true');
  await expect.element(end).toHaveAccessibleDescription(new RegExp(`Write the date as ${dateShape().pattern.replace(/[./]/g, '\\$&')}`));

  // an ISO date is understood anywhere, and written back in the locale's form once the field is left
  await end.fill(`${lastYear}-6-30`);
  await start.click();
  await expect.element(end).toHaveValue(formatLocaleDateInput(`${lastYear}-06-30`));
  await expect.element(end).not.toHaveAttribute('aria-invalid');
  expect(desk.calls.filter((c) => c.method === 'backOffice.write')).toEqual([]);
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
