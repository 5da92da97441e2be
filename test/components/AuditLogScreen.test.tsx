// The audit log's "Touched" column names the organization, operator, app or installation an entry touched when the
// desk knows it; it used to show only the first 8 characters of its id ("Organization e98aa5fb…"),
// which nobody can read back to a name. Its days are typed as the desk's locale writes dates.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { AuditLogScreen } from '@renderer/screens/back-office/AuditLogScreen';
import { dateShape, formatLocaleDateInput } from '@renderer/lib/localeDate';
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

const ORG = 'e98aa5fb-1111-4222-8333-444455556666';
const OPERATOR = '4925bc08-8cb3-484c-bd2e-89c0c266b3d9';
const INSTALLATION = '7f3e2d1c-aaaa-4bbb-8ccc-ddddeeeeffff';
const UNKNOWN = '00b1106b-aaaa-4bbb-8ccc-ddddeeeeffff';
const at = '2026-11-29T04:02:00.000Z';
const entry = (id: string, action: string, targetIds: string[]) => ({
  id,
  at,
  operatorId: 'op-1',
  actor: 'operator:op-1',
  action,
  targetIds,
  outcome: 'succeeded',
  detail: {},
});

/** The registry's answers the screen reads: these audit entries, and the names it looks ids up in (none unless given). */
function answerReads(lists: { entries: unknown[]; apps?: unknown[]; operators?: unknown[]; organizations?: unknown[] }) {
  desk.answer('backOffice.read', (input) => {
    const { endpoint } = input as { endpoint: string };
    const data =
      endpoint === 'operatorSearchAudit'
        ? { entries: lists.entries, nextCursor: null }
        : endpoint === 'operatorListApps'
          ? { apps: lists.apps ?? [], nextCursor: null }
          : endpoint === 'operatorListOperators'
            ? { operators: lists.operators ?? [] }
            : { organizations: lists.organizations ?? [], nextCursor: null };
    return { data, source: 'registry', fetchedAt: at };
  });
}

it('names the organization, operator and installation an entry touched, and shortens only an id it cannot name', async () => {
  answerReads({
    entries: [
      entry('a1', 'organizations.update', [ORG]),
      entry('a2', 'operators.setActive', [OPERATOR]),
      entry('a3', 'projects.setStatus', [UNKNOWN]),
      entry('a4', 'installations.setStatus', [INSTALLATION]),
      { ...entry('a5', 'apps.create', []), operatorId: null, actor: 'seed:demo' },
      { ...entry('a6', 'operators.create', []), operatorId: null, actor: 'desk:root' },
    ],
    apps: [{ id: 'app-1', name: 'Harbour Market', installations: [{ id: INSTALLATION, organizationId: ORG }] }],
    operators: [{ id: OPERATOR, name: 'Ada Administrator', role: 'administrator', active: false, createdAt: at, updatedAt: at }],
    organizations: [{ id: ORG, fullName: 'Walkthrough Forestry GmbH' }],
  });
  render(<AuditLogScreen />);
  const touched = (auditId: string) =>
    page.getByRole('table', { name: 'Audit entries' }).element().querySelector(`[data-audit-id="${auditId}"] td:nth-child(5)`);

  await expect.poll(() => touched('a1')?.textContent).toBe('Organization Walkthrough Forestry GmbH');
  await expect.poll(() => touched('a2')?.textContent).toBe('Operator Ada Administrator');
  await expect.poll(() => touched('a4')?.textContent).toBe('Installation Harbour Market for Walkthrough Forestry GmbH');
  expect(touched('a3')?.textContent).toBe('Project 00b1106b…');
  // Entries no operator made say who in words, the code under them (they read "seed:demo", "desk:root").
  const who = (auditId: string) =>
    page.getByRole('table', { name: 'Audit entries' }).element().querySelector(`[data-audit-id="${auditId}"] td:nth-child(2)`);
  expect(who('a5')?.textContent).toBe('Demo dataseed:demo');
  expect(who('a6')?.textContent).toBe('Desk setup, as rootdesk:root');
  // The operator filter names each with its role as the Operators screen writes it ("Ada (demo) (administrator)" read as two asides).
  await expect.element(page.getByRole('option', { name: 'Ada Administrator · Administrator' })).toBeInTheDocument();
});

it('says each action in words, the code kept in the entry’s details and the filter offering the words', async () => {
  answerReads({ entries: [entry('b1', 'projects.setStatus', []), entry('b2', 'preview.transfer', []), entry('b3', 'made.up', [])] });
  render(<AuditLogScreen />);
  const action = (auditId: string) =>
    page.getByRole('table', { name: 'Audit entries' }).element().querySelector(`[data-audit-id="${auditId}"] td:nth-child(3)`);

  await expect.poll(() => action('b1')?.textContent).toBe('Project status changed');
  expect(action('b2')?.textContent).toBe('Review of a transfer (nothing changed)');
  expect(action('b3')?.textContent).toBe('made.up');
  const details = page.getByRole('table', { name: 'Audit entries' }).element().querySelector('[data-audit-id="b1"] details');
  expect(details?.textContent).toContain('Action code: projects.setStatus');
  const filter = page.getByRole('combobox', { name: 'Action' }).element() as HTMLSelectElement;
  const option = [...filter.options].find((o) => o.value === 'projects.setStatus');
  expect(option?.textContent).toBe('Project status changed');
  // Sign-ins and reviews are recorded too, so they can be picked; the options read in the order of their words.
  const words = [...filter.options].slice(1).map((o) => o.textContent ?? '');
  expect(words).toContain('Operator signed in');
  expect(words).toContain('Review of a transfer (nothing changed)');
  expect(words).toEqual([...words].sort((a, b) => a.localeCompare(b, 'en')));
});

it('filters by days typed as the desk locale writes dates; a half-typed day is not sent, an inverted range says so', async () => {
  answerReads({ entries: [] });
  render(<AuditLogScreen />);
  const searches = () =>
    desk.calls
      .map((c) => c.input as { endpoint?: string; query?: Record<string, unknown> })
      .filter((i) => i.endpoint === 'operatorSearchAudit')
      .map((i) => i.query ?? {});
  const from = page.getByLabelText('From', { exact: true });
  const to = page.getByLabelText('To (inclusive)');
  await expect.element(from).toHaveAttribute('placeholder', dateShape().pattern);

  await from.fill(formatLocaleDateInput('2026-11-20').slice(0, 4));
  await expect.element(from).toHaveAttribute('aria-invalid', 'true');
  await expect.element(from).toHaveAccessibleDescription(/Until then this filter is not applied\.$/);
  expect(searches().every((q) => !('from' in q))).toBe(true);

  await from.fill(formatLocaleDateInput('2026-11-20'));
  await expect.poll(() => searches().some((q) => q.from === new Date(2026, 10, 20).toISOString())).toBe(true);
  await to.fill(formatLocaleDateInput('2026-11-01'));
  await expect.element(to).toHaveAccessibleDescription('The range ends before it starts, so no entry can match.');
});
