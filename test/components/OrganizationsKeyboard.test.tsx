// The operator's organization list with the keyboard: opening an organization (Enter on its name)
// puts focus on the organization's name, and the window title names it; it was left on the whole
// main region, so a screen reader said nothing of which organization opened. Back to the list
// ("← All organizations"), focus returns to that organization's row.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { OrganizationsScreen } from '@renderer/screens/back-office/OrganizationsScreen';
import { usePageTitle } from '@renderer/lib/pageTitle';
import { useBackOffice } from '@renderer/stores/backOffice';
import { useNavigation } from '@renderer/stores/navigation';
import { administratorSession } from './back-office-session';
import { render } from './render';
import { installScriptedBridge } from './scripted-bridge';

const desk = installScriptedBridge();

beforeEach(() => {
  useBackOffice.setState({ session: administratorSession });
  useNavigation.getState().openBackOffice('bo-organizations', {});
});
afterEach(() => {
  useBackOffice.setState({ session: null });
  useNavigation.getState().closeRecords();
  desk.reset();
});

const at = '2026-11-29T04:02:00.000Z';
const organization = (i: number) => ({
  id: `org-${i}`,
  fullName: `Organization ${i}`,
  type: 'buyer',
  countryCode: 'KE',
  city: '',
  zip: '',
  physicalAddress: '',
  registrationNumber: '',
  website: '',
  logo: '',
  organizationIndustries: { code: '', name: '' },
  isPublic: true,
  isVerified: false,
  isRegistry: false,
  createdAt: at,
  updatedAt: at,
  accounts: [],
  projects: [],
  installations: [],
});

it('Enter on an organization focuses its name and titles the window; going back returns to its row', async () => {
  desk.answer('backOffice.read', (input) => {
    const { endpoint, params } = input as { endpoint: string; params?: { organizationId: string } };
    const data =
      endpoint === 'operatorListOrganizations'
        ? {
            organizations: Array.from({ length: 20 }, (_, i) => organization(i)),
            pagination: { total: 20, page: 0, limit: 50, nextPage: null },
          }
        : endpoint === 'operatorGetOrganization'
          ? { organization: organization(Number(params!.organizationId.slice(4))) }
          : endpoint === 'operatorSearchAudit'
            ? { entries: [], nextCursor: null }
            : { operators: [] };
    return { data, source: 'registry', fetchedAt: at };
  });
  render(<OrganizationsScreen />);
  const row = page.getByRole('button', { name: 'Organization 7', exact: true });
  await expect.element(row).toBeVisible();
  (row.element() as HTMLElement).focus();
  await userEvent.keyboard('{Enter}');

  await expect.element(page.getByRole('heading', { level: 2, name: 'Organization 7' })).toHaveFocus();
  expect(usePageTitle.getState().record).toBe('Organization: Organization 7');

  await userEvent.tab({ shift: true });
  await expect.element(page.getByRole('button', { name: '← All organizations' })).toHaveFocus();
  await userEvent.keyboard('{Enter}');
  await expect.element(page.getByRole('button', { name: 'Organization 7', exact: true })).toHaveFocus();
  expect(usePageTitle.getState().record).toBeNull();
});
