// The operator's project list with the keyboard: opening a project (Enter on its name) moves focus
// into its details panel, so Submit is two Tab presses away; it was after every row of the list
// (about 95 presses on the demo's first page). Closing the panel gives focus back to the row. A
// draft just created: its panel opens behind the dialog, and takes focus once the dialog closes.
// The panel is named for its project at once: focus reached its heading while the project was still
// being read, and a screen reader said "Project"; the window kept the list's title.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { ProjectsScreen } from '@renderer/screens/back-office/ProjectsScreen';
import { useBackOffice } from '@renderer/stores/backOffice';
import { useNavigation } from '@renderer/stores/navigation';
import { usePageTitle } from '@renderer/lib/pageTitle';
import { administratorSession } from './back-office-session';
import { render } from './render';
import { installScriptedBridge } from './scripted-bridge';

const desk = installScriptedBridge();

beforeEach(() => {
  useBackOffice.setState({ session: administratorSession });
  useNavigation.getState().openBackOffice('bo-projects', {});
});
afterEach(() => {
  useBackOffice.setState({ session: null });
  useNavigation.getState().closeRecords();
  desk.reset();
});

const at = '2026-11-29T04:02:00.000Z';
const project = (i: number) => ({
  id: `p-${i}`,
  num: String(1000 + i),
  fullName: `Project ${i}`,
  status: 'draft',
  organizationId: 'org-1',
  createdAt: at,
  updatedAt: at,
  history: [],
});
const details = {
  shortDescription: '',
  description: '',
  proponents: [],
  validators: [],
  countryCode: 'KE',
  city: '',
  state: '',
  location: null,
  startDate: at,
  creditingPeriodStartDate: at,
  sector: { id: 'energy', title: 'Energy' },
  methodology: { id: 'm', title: 'M' },
  type: { id: 't', title: 'T' },
  estimatedAnnualMitigations: [],
  documentation: [],
  kmlFile: null,
  otherBenefits: [],
};

it('Enter on a project moves focus into its panel, Submit is two Tabs away, and closing returns to the row', async () => {
  desk.answer('backOffice.read', (input) => {
    const { endpoint, params } = input as { endpoint: string; params?: { projectId: string } };
    const data =
      endpoint === 'operatorListProjects'
        ? { projects: Array.from({ length: 50 }, (_, i) => project(i)), pagination: { total: 50, page: 0, limit: 50 } }
        : endpoint === 'operatorGetProject'
          ? { project: { ...project(Number(params!.projectId.slice(2))) }, details }
          : { organizations: [], nextCursor: null };
    return { data, source: 'registry', fetchedAt: at };
  });
  render(<ProjectsScreen />);
  const row = page.getByRole('button', { name: 'Project 7', exact: true });
  await expect.element(row).toBeVisible();
  (row.element() as HTMLElement).focus();
  await userEvent.keyboard('{Enter}');

  const panel = page.getByRole('complementary', { name: 'Project details' });
  await expect.element(panel.getByRole('heading', { level: 2 })).toHaveFocus();
  await expect.element(panel.getByRole('button', { name: 'Submit' })).toBeVisible();
  await userEvent.tab();
  await userEvent.tab();
  await expect.element(panel.getByRole('button', { name: 'Submit' })).toHaveFocus();

  // the way back: the panel's close button, then focus is on the row it was opened from
  await userEvent.tab({ shift: true });
  await expect.element(panel.getByRole('button', { name: 'Close details' })).toHaveFocus();
  await userEvent.keyboard('{Enter}');
  await expect.element(row).toHaveFocus();
});

it('a draft just created has focus on its panel once its dialog closes, not on "New draft project"', async () => {
  desk.answer('backOffice.read', (input) => {
    const { endpoint, params } = input as { endpoint: string; params?: { projectId: string } };
    const data =
      endpoint === 'operatorListProjects'
        ? { projects: Array.from({ length: 5 }, (_, i) => project(i)), pagination: { total: 5, page: 0, limit: 50 } }
        : endpoint === 'operatorGetProject'
          ? { project: { ...project(Number(params!.projectId.slice(2))) }, details }
          : { organizations: [{ id: 'org-1', fullName: 'Proponent Ltd', type: 'projectProponent' }], nextCursor: null };
    return { data, source: 'registry', fetchedAt: at };
  });
  desk.answer('backOffice.write', () => ({ outcome: 'done', data: { ...project(60), id: 'p-60' } }));
  render(<ProjectsScreen />);
  const opener = page.getByRole('button', { name: 'New draft project' });
  await expect.element(page.getByRole('button', { name: 'Project 3', exact: true })).toBeVisible();
  await opener.click();
  const dialog = page.getByRole('dialog', { name: 'New draft project' });
  await dialog.getByLabelText('Project name').fill('Keyboard Forest');
  await dialog.getByLabelText('Start date').fill('2026-12-01');
  await dialog.getByLabelText('Crediting period start').fill('2026-12-01');
  await dialog.getByLabelText('Country').selectOptions('KE');
  await dialog.getByLabelText('Sector', { exact: true }).selectOptions('forestry');
  await dialog.getByLabelText('Methodology', { exact: true }).selectOptions('RDR-AR-001');
  await dialog.getByLabelText('Type', { exact: true }).selectOptions('removal');
  await dialog.getByLabelText('Proponent organization (owner)').selectOptions('org-1');
  await dialog.getByRole('button', { name: 'Review' }).click();
  await page.getByRole('button', { name: 'Create draft' }).click();
  await expect.element(page.getByRole('dialog', { name: 'Draft project created' })).toBeVisible();

  await userEvent.keyboard('{Escape}');
  const panel = page.getByRole('complementary', { name: 'Project details' });
  await expect.element(panel.getByRole('heading', { level: 2 })).toHaveFocus();
  await expect.element(panel.getByRole('heading', { level: 2 })).toHaveTextContent('Project 60');
});

it('names the opened panel and the window for the project while it is still being read', async () => {
  desk.answer('backOffice.read', (input) => {
    const { endpoint } = input as { endpoint: string };
    // the project itself never answers here: what is named comes from the list
    if (endpoint === 'operatorGetProject') return new Promise<never>(() => {});
    const data =
      endpoint === 'operatorListProjects'
        ? { projects: Array.from({ length: 5 }, (_, i) => project(i)), pagination: { total: 5, page: 0, limit: 50 } }
        : { organizations: [], nextCursor: null };
    return { data, source: 'registry', fetchedAt: at };
  });
  render(<ProjectsScreen />);
  const row = page.getByRole('button', { name: 'Project 3', exact: true });
  await expect.element(row).toBeVisible();
  (row.element() as HTMLElement).focus();
  await userEvent.keyboard('{Enter}');
  const heading = page.getByRole('complementary', { name: 'Project details' }).getByRole('heading', { level: 2 });
  await expect.element(heading).toHaveFocus();
  await expect.element(heading).toHaveTextContent('1003 · Project 3');
  expect(usePageTitle.getState().record).toBe('Project 1003: Project 3');
});

it('names the list and its heading for the status filter ("Draft projects"), not every status', async () => {
  desk.answer('backOffice.read', (input) => {
    const { endpoint, query } = input as { endpoint: string; query?: { status?: string } };
    const data =
      endpoint === 'operatorListProjects'
        ? { projects: [{ ...project(1), status: query?.status ?? 'draft' }], pagination: { total: 1, page: 0, limit: 50 } }
        : { organizations: [], nextCursor: null };
    return { data, source: 'registry', fetchedAt: at };
  });
  render(<ProjectsScreen />);
  await expect.element(page.getByRole('table', { name: 'Projects of every status' })).toBeVisible();
  await expect.element(page.getByRole('heading', { level: 2, name: 'Projects of every status' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Status' }).selectOptions('draft');
  await expect.element(page.getByRole('table', { name: 'Draft projects' })).toBeVisible();
  await expect.element(page.getByRole('heading', { level: 2, name: 'Draft projects' })).toBeVisible();
  await expect.element(page.getByRole('table', { name: 'Projects of every status' })).not.toBeInTheDocument();
});
