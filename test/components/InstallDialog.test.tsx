// An installation reviewed and installed: once done, the dialog's title says so. It used to keep
// "Review the installation of …" over the "Done" line, as if nothing had been sent yet (the same
// dialog frame serves the new organization, its edit and the new operator). Granting or revoking an
// app's examiner rights is reviewed too: it changed at the first click.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { InstallDialog } from '@renderer/screens/back-office/InstallationDialogs';
import { ExaminerDialog } from '@renderer/screens/back-office/ExaminerDialog';
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

const app = {
  id: 'app-1',
  name: 'Harbour Market',
  nameId: 'harbour-market',
  examinerRead: false,
  createdAt: '2024-01-02T00:00:00.000Z',
  installations: [],
};

it('once installed, the dialog is titled by what was done, not "Review …"', async () => {
  desk.answer('backOffice.write', () => ({ outcome: 'done', data: { id: 'inst-1' } }));
  render(<InstallDialog app={app} organizations={new Map([['org-1', 'Baobab Roots']])} onClose={() => {}} />);
  await page.getByLabelText('Organization', { exact: true }).selectOptions('org-1');
  await page.getByLabelText('Organization info').selectOptions('VIEW');
  await page.getByRole('button', { name: 'Review' }).click();
  const review = page.getByRole('dialog', { name: 'Review the installation of Harbour Market' });
  await expect.element(review).toBeVisible();
  // the level in words, not the registry's code (it read "VIEW")
  await expect.element(review.getByRole('group', { name: 'What will be sent' })).toHaveTextContent(/Organization info\s*Can view/);

  await page.getByRole('button', { name: 'Install', exact: true }).click();

  const done = page.getByRole('dialog', { name: 'Harbour Market installed' });
  await expect.element(done.getByRole('status')).toHaveTextContent('Done');
  // ...and what was sent is said as done (it read "The registry will install …" under "Done")
  await expect
    .element(done.getByRole('group', { name: 'What was sent' }))
    .toHaveTextContent(/^The registry installed Harbour Market for this organization/);
});

it('revokes examiner rights only once the review is confirmed, and says what was done', async () => {
  desk.answer('backOffice.write', () => ({ outcome: 'done', data: { id: 'app-1', examinerRead: false } }));
  render(<ExaminerDialog app={{ ...app, examinerRead: true }} onClose={() => {}} />);
  const review = page.getByRole('dialog', { name: 'Revoke examiner rights of Harbour Market?' });
  await expect.element(review).toHaveTextContent(/Examiner rights\s*Granted → Not granted/);
  await expect.element(review).toHaveTextContent(/can no longer read projects’ internal views, at once/);
  expect(desk.calls.filter((c) => c.method === 'backOffice.write')).toEqual([]);

  await review.getByRole('button', { name: 'Revoke examiner rights' }).click();
  const done = page.getByRole('dialog', { name: 'Examiner rights revoked for Harbour Market' });
  await expect.element(done.getByRole('status')).toHaveTextContent('Done');
  expect(desk.calls.filter((c) => c.method === 'backOffice.write')).toHaveLength(1);
});
