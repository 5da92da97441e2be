// Editing a draft project while a sync brings another operator's change to it: the screen behind
// re-renders the open dialog with the refreshed project, and saving sends only what this operator
// edited (once, the form's older value of the other field was sent back, undoing that change).
import { afterEach, beforeEach, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import type { Project } from '../../shared/registry/resources';
import { draftProject } from '../support/draft-project';
import { ProjectFormDialog } from '../../renderer/src/screens/back-office/ProjectFormDialog';
import { useBackOffice } from '../../renderer/src/stores/backOffice';
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
