// Once a reviewed write is done, what the dialog shows of it is said as done: after Create, the new
// organization's review still read "The registry will create this organization" under "Done", and
// the new draft project's "The registry will create this project as a draft" under its "Review …"
// title, as if nothing had been sent.
import { useState } from 'react';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { useBackOfficeAction } from '@renderer/components/backOffice/useBackOfficeAction';
import { CreateOrganizationDialog } from '@renderer/screens/back-office/CreateOrganizationDialog';
import { NewDraftReview, type NewDraft } from '@renderer/screens/back-office/NewDraftReview';
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

it('after Create, the new organization is said as created, not as what the registry will do', async () => {
  desk.answer('backOffice.write', () => ({ outcome: 'done', data: { organization: { id: 'org-9' } } }));
  render(<CreateOrganizationDialog onClose={() => {}} />);
  await page.getByLabelText('Name').fill('Baobab Roots');
  await page.getByLabelText('Country').selectOptions('KE');
  await page.getByRole('button', { name: 'Review' }).click();
  const review = page.getByRole('dialog', { name: 'Review the new organization' }).getByRole('group', { name: 'What will be sent' });
  await expect.element(review).toHaveTextContent(/^The registry will create this organization, not verified yet:/);

  await page.getByRole('button', { name: 'Create', exact: true }).click();

  const done = page.getByRole('dialog', { name: 'Organization created' });
  await expect.element(done.getByRole('status')).toHaveTextContent('Done');
  const sent = done.getByRole('group', { name: 'What was sent' });
  await expect.element(sent).toHaveTextContent(/^The registry created this organization, not verified yet:/);
  expect(sent.element().textContent).not.toMatch(/\bwill\b/);
});

const draft: NewDraft = {
  fullName: 'Kasigau Corridor',
  description: 'Forest protection',
  shortDescription: 'Forest',
  startDate: '2024-01-01',
  creditingPeriodStartDate: '2024-06-01',
  countryCode: 'KE',
  sector: { id: '14', title: 'Forestry' },
  methodology: { id: 'VM0009', title: 'Avoided deforestation' },
  type: { id: 'REDD', title: 'REDD+', description: '' },
  organizationId: 'org-1',
  status: 'draft',
};

function DraftReview() {
  const action = useBackOfficeAction('operatorCreateProject');
  const [closed, setClosed] = useState(false);
  if (closed) return null;
  return (
    <NewDraftReview
      body={draft}
      organizations={new Map([['org-1', 'Baobab Roots']])}
      action={action}
      onClose={() => setClosed(true)}
      onBack={() => {}}
    />
  );
}

it('after Create draft, the draft is titled and said as created', async () => {
  desk.answer('backOffice.write', () => ({ outcome: 'done', data: { id: 'p-9' } }));
  render(<DraftReview />);
  const review = page.getByRole('dialog', { name: 'Review the new draft project' });
  await expect.element(review).toHaveTextContent(/The registry will create this project as a draft/);

  await page.getByRole('button', { name: 'Create draft' }).click();

  const done = page.getByRole('dialog', { name: 'Draft project created' });
  await expect.element(done.getByRole('status')).toHaveTextContent('Done');
  await expect.element(done).toHaveTextContent(/The registry created this project as a draft/);
  expect(done.element().textContent).not.toMatch(/\bwill\b/);
});
