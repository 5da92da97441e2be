// A status change asked for without its comment: the comment was required but its label did not
// say so, and the refusal left focus on the button pressed, so nothing seemed to happen. Now the
// label says it, focus goes to the comment with the reason beside it, and nothing is sent.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { StatusChangeDialog } from '@renderer/screens/back-office/StatusChangeDialog';
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

it('a status change without a comment says the comment is required at it, focuses it, and sends nothing', async () => {
  render(<StatusChangeDialog projectId="p-1" name="Lamu Mangroves" from="submitted" to="validated" onClose={() => {}} />);
  const comment = page.getByLabelText('Comment (required)');
  await expect.element(comment).toBeVisible();

  await page.getByRole('button', { name: 'Validate', exact: true }).click();

  await expect.element(comment).toHaveFocus();
  await expect.element(comment).toHaveAttribute('aria-invalid', 'true');
  await expect.element(page.getByText('Write a comment: say why the status changes.')).toBeVisible();
  expect(desk.calls.filter((c) => c.method === 'backOffice.write')).toEqual([]);
});
