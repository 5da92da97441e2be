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
import { deskError, installScriptedBridge } from './scripted-bridge';

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

it("offers as receiving organization only the chosen project's verified proponents (the registry refuses any other)", async () => {
  const at = '2024-01-02T00:00:00.000Z';
  const organization = (id: string, fullName: string, type = 'projectProponent', isVerified = true) => ({
    id,
    fullName,
    type,
    isVerified,
    isRegistry: false,
  });
  const project = (id: string, fullName: string, organizationId: string) => ({
    id,
    num: '1001',
    fullName,
    status: 'registered',
    organizationId,
    history: [],
  });
  const proponents: Record<string, string[]> = { 'p-1': ['org-owner', 'org-partner', 'org-unverified'], 'p-2': ['org-outsider'] };
  desk.answer('backOffice.read', (input) => {
    const { endpoint, query, params } = input as { endpoint: string; query?: { status?: string }; params?: { projectId: string } };
    const data =
      endpoint === 'operatorListProjects'
        ? {
            projects:
              query?.status === 'registered'
                ? [project('p-1', 'Kisumu Cookstoves', 'org-owner'), project('p-2', 'Nanyuki Wind', 'org-outsider')]
                : [],
          }
        : endpoint === 'operatorGetProject'
          ? {
              project: {},
              details: { proponents: proponents[params!.projectId]!.map((id) => ({ id, fullName: id, logo: '', publicUrl: '' })) },
            }
          : {
              organizations: [
                organization('org-owner', 'Owner Ltd'),
                organization('org-partner', 'Partner Ltd'),
                organization('org-outsider', 'Outsider Ltd'),
                // a proponent the registry refuses too: it has not passed business verification
                organization('org-unverified', 'Unverified Ltd', 'projectProponent', false),
                organization('org-vvb', 'Verifier Ltd', 'validationVerificationBody'),
              ],
            };
    return { data, source: 'registry', fetchedAt: at };
  });
  render(<IssuanceScreen />);
  const receiving = page.getByLabelText('Receiving organization');
  const options = () => [...(receiving.element() as HTMLSelectElement).options].map((o) => o.textContent);
  await page.getByLabelText('Project').selectOptions('Kisumu Cookstoves (#1001, registered)');
  await expect.poll(options).toEqual(['Owner Ltd (project owner)', 'Partner Ltd']);
  await receiving.selectOptions('Partner Ltd');
  // another project: its own proponents, and the choice made for the first one is dropped
  await page.getByLabelText('Project').selectOptions('Nanyuki Wind (#1001, registered)');
  await expect.poll(options).toEqual(['Outsider Ltd (project owner)']);
  await expect.element(receiving).toHaveValue('');
});

it('a review refused about the receiver is shown at Receiving organization once back, by name, until the form changes', async () => {
  const refusal =
    'The registry refused because of the current state: receivingOrganizationId: Partner Ltd has not passed business ' +
    'verification; credits are issued only to verified organizations (organization org-partner)';
  desk.answer('backOffice.read', (input) => {
    const { endpoint } = input as { endpoint: string };
    if (endpoint === 'operatorPreview') return deskError('conflict', refusal);
    const organization = (id: string, fullName: string, type = 'projectProponent') => ({
      id,
      fullName,
      type,
      isVerified: true,
      isRegistry: false,
    });
    const data =
      endpoint === 'operatorListProjects'
        ? {
            projects: [
              { id: 'p-1', num: '1001', fullName: 'Kisumu Cookstoves', status: 'registered', organizationId: 'org-owner', history: [] },
            ],
          }
        : endpoint === 'operatorGetProject'
          ? {
              project: {},
              details: { proponents: ['org-owner', 'org-partner'].map((id) => ({ id, fullName: id, logo: '', publicUrl: '' })) },
            }
          : {
              organizations: [
                organization('org-owner', 'Owner Ltd'),
                organization('org-partner', 'Partner Ltd'),
                organization('org-vvb', 'Verifier Ltd', 'validationVerificationBody'),
              ],
            };
    return { data, source: 'registry', fetchedAt: '2024-01-02T00:00:00.000Z' };
  });
  render(<IssuanceScreen />);
  await page.getByLabelText('Project').selectOptions('Kisumu Cookstoves (#1001, registered)');
  const receiving = page.getByLabelText('Receiving organization');
  await expect.element(page.getByRole('option', { name: 'Partner Ltd' })).toBeInTheDocument();
  await receiving.selectOptions('Partner Ltd');
  await page.getByLabelText('Amount (tonnes)').fill('5');
  await page.getByLabelText('Verification body').selectOptions('Verifier Ltd');
  await page.getByRole('button', { name: 'Review issuance' }).click();
  await expect
    .element(page.getByRole('alert').getByText(/^The registry would refuse this/))
    .toHaveTextContent(/^The registry would refuse this: Receiving organization: Partner Ltd has not passed business verification;/);

  await page.getByRole('button', { name: 'Back to the form' }).click();
  await expect.element(receiving).toHaveAttribute('aria-invalid', 'true');
  await expect
    .element(receiving)
    .toHaveAccessibleDescription(/Partner Ltd has not passed business verification; credits are issued only to verified organizations\.$/);
  await page.getByLabelText('Amount (tonnes)').fill('4');
  await expect.element(receiving).not.toHaveAttribute('aria-invalid', 'true');
});
