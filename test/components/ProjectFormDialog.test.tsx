// Editing a draft project while a sync brings another operator's change to it: the screen behind
// re-renders the open dialog with the refreshed project, and saving sends only what this operator
// edited (once, the form's older value of the other field was sent back, undoing that change).
import { afterEach, beforeEach, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import type { Project } from '@shared/registry/resources';
import { draftProject } from '../support/draft-project';
import { ProjectFormDialog } from '@renderer/screens/back-office/ProjectFormDialog';
import { useBackOffice } from '@renderer/stores/backOffice';
import { administratorSession } from './back-office-session';
import { render } from './render';
import { installScriptedBridge } from './scripted-bridge';

const desk = installScriptedBridge();

beforeEach(() => useBackOffice.setState({ session: administratorSession }));
afterEach(() => {
  desk.reset();
  useBackOffice.setState({ session: null });
});

it("sends only the name edited, not the form's older value of a field another operator changed meanwhile", async () => {
  desk.answer('backOffice.write', () => ({ outcome: 'done', data: { ...draftProject, fullName: 'Lamu Mangroves' } }));
  const organizations = new Map([['org-a', 'A']]);
  const dialog = (details: Project) => (
    <ProjectFormDialog project={{ id: details.id, details }} organizations={organizations} onClose={() => {}} />
  );
  const { rerender } = render(dialog(draftProject));
  await expect.element(page.getByLabelText('City')).toHaveValue('Lamu');

  // A sync: another operator moved the project to Mombasa; the screen behind re-renders the dialog.
  rerender(dialog({ ...draftProject, city: 'Mombasa' }));
  await page.getByLabelText('Project name').fill('Lamu Mangroves');
  await page.getByRole('button', { name: 'Save changes' }).click();

  await expect.poll(() => desk.answered('backOffice.write')).toBe(1);
  const write = desk.calls.find((c) => c.method === 'backOffice.write')!.input;
  expect(write).toMatchObject({ endpoint: 'operatorUpdateProject', params: { projectId: 'p1' }, body: { fullName: 'Lamu Mangroves' } });
  expect((write as { body: object }).body).toEqual({ fullName: 'Lamu Mangroves' });
});

it('offers sector, methodology and type from the vocabulary, and only proponents as owners', async () => {
  const organizations = new Map([
    ['org-p', 'Proponent Ltd'],
    ['org-v', 'Verifier GmbH'],
    ['org-b', 'Buyer Inc'],
    ['org-r', 'The Registry'],
  ]);
  const types = new Map([
    ['org-p', 'projectProponent'],
    ['org-v', 'validationVerificationBody'],
    ['org-b', 'buyer'],
    ['org-r', 'registryOperator'],
  ]);
  render(<ProjectFormDialog organizations={organizations} organizationTypes={types} onClose={() => {}} />);
  const options = (label: string) =>
    [...(page.getByLabelText(label, { exact: true }).element() as HTMLSelectElement).options].map((o) => o.text);
  await expect.element(page.getByLabelText('Sector', { exact: true })).toBeVisible();
  expect(options('Sector')).toContain('Forestry and land use (forestry)');
  await page.getByLabelText('Sector', { exact: true }).selectOptions('forestry');
  // The sector narrows the methodologies to its own.
  expect(options('Methodology')).toEqual([
    'Choose…',
    'Afforestation, reforestation and revegetation (RDR-AR-001)',
    'Avoided unplanned deforestation and degradation (RDR-REDD-002)',
  ]);
  await page.getByLabelText('Type', { exact: true }).selectOptions('removal');
  await expect.element(page.getByLabelText('Type description')).toHaveValue('Takes carbon dioxide out of the atmosphere and stores it.');
  expect(options('Proponent organization (owner)')).toEqual(['Choose…', 'Proponent Ltd']);
});

it("offers organizations by name in the desk locale's collation, as the rest of the desk sorts names", async () => {
  // In code-unit order, "Zebra" would come before "acacia", and "Ålborg" after both.
  const organizations = new Map([
    ['org-z', 'Zebra Proponents'],
    ['org-a', 'Ålborg Forests'],
    ['org-c', 'acacia Trust'],
  ]);
  render(<ProjectFormDialog organizations={organizations} onClose={() => {}} />);
  const owner = page.getByLabelText('Proponent organization (owner)', { exact: true });
  await expect.element(owner).toBeVisible();
  const names = [...(owner.element() as HTMLSelectElement).options].map((o) => o.text);
  expect(names).toEqual(['Choose…', 'acacia Trust', 'Ålborg Forests', 'Zebra Proponents']);
});
