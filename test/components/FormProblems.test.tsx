// Back-office form problems beside the fields they are about: each shown once, at its field
// (aria-invalid, described by it), focus on the first, nothing sent. They used to be listed under
// the form, away from the field to fix ("Website: enter a full web address…").
import { afterEach, beforeEach, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { CreateOrganizationDialog } from '@renderer/screens/back-office/CreateOrganizationDialog';
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

it('a new organization with no name, no country and a bad website: each problem beside its field, focus on the first', async () => {
  render(<CreateOrganizationDialog onClose={() => {}} />);
  const dialog = page.getByRole('dialog', { name: 'New organization' });
  await dialog.getByLabelText('Website (optional)').fill('not a url');
  await dialog.getByRole('button', { name: 'Review' }).click();

  const name = dialog.getByLabelText('Name');
  await expect.element(name).toHaveFocus();
  for (const [label, problem] of [
    ['Name', 'Enter the organization’s name.'],
    ['Country', 'Choose the organization’s country.'],
    ['Website (optional)', 'Enter a full web address, for example https://example.org.'],
  ] as const) {
    const field = dialog.getByLabelText(label, { exact: true });
    await expect.element(field).toHaveAttribute('aria-invalid', 'true');
    await expect.element(field).toHaveAccessibleDescription(new RegExp(problem.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    // once: beside the field, not again in a list under the form
    expect(dialog.getByText(problem).elements()).toHaveLength(1);
  }
  expect(dialog.getByRole('alert').query()).toBeNull();
  expect(desk.calls.filter((c) => c.method === 'backOffice.write')).toEqual([]);

  // fixed fields lose their problem on the next try
  await name.fill('Savanna Carbon Cooperative');
  await dialog.getByRole('button', { name: 'Review' }).click();
  await expect.element(name).not.toHaveAttribute('aria-invalid');
  await expect.element(dialog.getByLabelText('Country', { exact: true })).toHaveFocus();
});
