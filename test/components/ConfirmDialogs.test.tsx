// The back office's one-step confirm dialogs (a status change, suspending an installation, disabling
// an operator, recording a verification): once done, each is titled by what happened. They kept
// their question ("Suspend the installation for …?") over the "Done" line, as if nothing had been
// sent; the reviewed dialogs already say "Organization created" and the like.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { StatusChangeDialog } from '@renderer/screens/back-office/StatusChangeDialog';
import { InstallationStatusDialog } from '@renderer/screens/back-office/InstallationDialogs';
import { ActiveDialog } from '@renderer/screens/back-office/OperatorsScreen';
import { VerifyDialog } from '@renderer/screens/back-office/organization-page/VerifyDialog';
import { useBackOffice } from '@renderer/stores/backOffice';
import { administratorSession } from './back-office-session';
import { render } from './render';
import { installScriptedBridge } from './scripted-bridge';

const desk = installScriptedBridge();

beforeEach(() => {
  useBackOffice.setState({ session: administratorSession });
  desk.answer('backOffice.write', () => ({ outcome: 'done', data: {} }));
});
afterEach(() => {
  useBackOffice.setState({ session: null });
  desk.reset();
});

/** Confirms with `button`, then expects the dialog renamed from `asked` to `done`, its outcome "Done". */
async function confirmAndExpect(asked: string, button: string, done: string) {
  await expect.element(page.getByRole('dialog', { name: asked })).toBeVisible();
  await page.getByRole('button', { name: button, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: done });
  await expect.element(dialog.getByRole('status')).toHaveTextContent('Done');
  expect(page.getByRole('dialog', { name: asked }).query()).toBeNull();
  expect(desk.calls.filter((c) => c.method === 'backOffice.write')).toHaveLength(1);
  // One control per name: the "×" is "Close dialog", the footer's button "Close".
  expect(dialog.getByRole('button', { name: 'Close', exact: true }).all()).toHaveLength(1);
  expect(dialog.getByRole('button', { name: 'Close dialog', exact: true }).all()).toHaveLength(1);
}

it('a status change, once done, is titled by the new status', async () => {
  render(<StatusChangeDialog projectId="p-1" name="Lamu Mangroves" from="draft" to="submitted" onClose={() => {}} />);
  await page.getByLabelText('Comment (required)').fill('Ready for validation');
  await confirmAndExpect('Submit: Lamu Mangroves', 'Submit', 'Submitted: Lamu Mangroves');
  // What was sent is shown as text: nothing is left to edit once it is done.
  const done = page.getByRole('dialog', { name: 'Submitted: Lamu Mangroves' });
  await expect.element(done.getByText('Ready for validation')).toBeVisible();
  expect(done.getByRole('textbox').query()).toBeNull();
});

it('suspending an installation, once done, says it is suspended', async () => {
  const installation = {
    id: 'inst-1',
    appId: 'app-1',
    appName: 'Harbour Market',
    organizationId: 'org-1',
    status: 'active' as const,
    permissions: { organization_info: 'VIEW' },
    createdAt: '2024-01-02T00:00:00.000Z',
  };
  render(
    <InstallationStatusDialog appName="Harbour Market" installation={installation} organizationName="Baobab Roots" onClose={() => {}} />,
  );
  await confirmAndExpect('Suspend the installation for Baobab Roots?', 'Suspend installation', 'Installation for Baobab Roots suspended');
});

it('disabling an operator, once done, says it is disabled', async () => {
  const operator = {
    id: 'op-2',
    name: 'Grace Viewer',
    role: 'viewer' as const,
    active: true,
    createdAt: '2024-01-02T00:00:00.000Z',
    updatedAt: '2024-01-02T00:00:00.000Z',
  };
  render(<ActiveDialog operator={operator} onClose={() => {}} />);
  await confirmAndExpect('Disable Grace Viewer', 'Disable', 'Grace Viewer disabled');
});

it('recording a verification, once done, says it is recorded', async () => {
  render(<VerifyDialog organization={{ id: 'org-1', name: 'Baobab Roots', verified: false }} onClose={() => {}} />);
  await expect.element(page.getByText('What changes:')).toBeVisible();
  await confirmAndExpect('Record the verification', 'Record verification', 'Verification recorded');
  // and what it lists is now what changed, not what will
  await expect.element(page.getByText('What changed:')).toBeVisible();
});
