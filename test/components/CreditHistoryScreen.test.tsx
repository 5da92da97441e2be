// Credit history on a slow network: "Show later movements" pressed for one credit, then another
// credit searched before that page came back. The later page belongs to the first credit's trail
// only: answering after the second search, it is dropped, never appended to the second trail.
// Walked with the keyboard: an empty search did nothing and a history shown was never said.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import type { BackOfficeData } from '@shared/desk/back-office';
import { Announcer } from '@renderer/components/Announcer';
import { CreditHistoryScreen } from '@renderer/screens/back-office/CreditHistoryScreen';
import { useBackOffice } from '@renderer/stores/backOffice';
import { useNavigation } from '@renderer/stores/navigation';
import { administratorSession } from './back-office-session';
import { render } from './render';
import { installScriptedBridge } from './scripted-bridge';

const desk = installScriptedBridge();

type Trail = BackOfficeData<'operatorCreditTrail'>;

const trail = (serialization: string, firstId: number, count: number, nextCursor: string | null): Trail => ({
  credit: {
    id: `credit-${serialization}`,
    serialization,
    projectId: 'project-1',
    projectNum: '1',
    projectName: 'Kenya Cookstoves',
    organizationId: 'org-1',
    vintage: '2022',
    type: 'exPost',
  },
  movements: Array.from({ length: count }, (_, i) => ({
    id: firstId + i,
    at: '2024-01-01T00:00:00.000Z',
    kind: 'transfer',
    amountGrams: 1_000_000,
    from: { id: 'a1', kind: 'buffer' as const, organizationId: null, organizationName: null, walletAddress: null },
    to: { id: 'a2', kind: 'registry' as const, organizationId: null, organizationName: null, walletAddress: null },
    reference: null,
    reason: null,
    audit: null,
  })),
  nextCursor,
});

const A = 'RDR-KEN-1-1-1-P-0-2022';
const B = 'RDR-KEN-1-1-2-P-0-2022';

/** Trail reads the test answers one by one, by `serialization` and `cursor`. */
function heldReads() {
  const pending = new Map<string, (data: Trail) => void>();
  desk.answer('backOffice.read', (input) => {
    const { query } = input as { query: { serialization: string; cursor?: string } };
    return new Promise((resolve) => {
      pending.set(`${query.serialization}${query.cursor ? `@${query.cursor}` : ''}`, (data) =>
        resolve({ data, source: 'registry', fetchedAt: '2024-01-02T00:00:00.000Z' }),
      );
    });
  });
  return {
    asked: (key: string) => pending.has(key),
    answer(key: string, data: Trail) {
      pending.get(key)!(data);
      pending.delete(key);
    },
  };
}

const rows = () => page.getByRole('table', { name: 'Ledger movements, oldest first' }).getByRole('row');
/** Two frames: a read answered has been handled and rendered by then. */
const rendered = async () => {
  for (let i = 0; i < 2; i++) await new Promise((resolve) => requestAnimationFrame(resolve));
};

beforeEach(() => {
  useBackOffice.setState({ session: administratorSession });
  useNavigation.setState({ backOffice: {} });
});
afterEach(() => {
  desk.reset();
  useBackOffice.setState({ session: null });
});

async function searchFor(serialization: string) {
  await page.getByLabelText('Serialization or credit id').fill(serialization);
  await page.getByRole('button', { name: 'Show history' }).click();
}

it("drops a later page of the first credit that answers after another credit's search", async () => {
  const reads = heldReads();
  render(<CreditHistoryScreen />);
  await searchFor(A);
  await expect.poll(() => reads.asked(A)).toBe(true);
  reads.answer(A, trail(A, 1, 2, 'a-page-2'));
  await expect.element(page.getByRole('heading', { name: A })).toBeVisible();

  await page.getByRole('button', { name: 'Show later movements' }).click();
  await expect.poll(() => reads.asked(`${A}@a-page-2`)).toBe(true);
  await searchFor(B);
  await expect.poll(() => reads.asked(B)).toBe(true);

  // The second search answers first, then the first credit's later page.
  reads.answer(B, trail(B, 100, 3, null));
  await expect.element(page.getByRole('heading', { name: B })).toBeVisible();
  await expect.poll(() => rows().all().length).toBe(1 + 3);
  reads.answer(`${A}@a-page-2`, trail(A, 3, 2, null));
  await expect.poll(() => desk.answered('backOffice.read')).toBe(3);
  await rendered();

  expect(page.getByRole('heading', { level: 2 }).element()).toHaveTextContent(B);
  expect(rows().all()).toHaveLength(1 + 3);
  expect(page.getByRole('alert').query()).toBeNull();
});

it('names the organization that owns the credit, and says the same of every movement no operator made', async () => {
  const seeded = trail(A, 1, 2, null);
  seeded.movements[1] = { ...seeded.movements[1]!, reference: 'seed-1' };
  desk.answer('backOffice.read', (input) => {
    const { endpoint } = input as { endpoint: string };
    const data =
      endpoint === 'operatorListOrganizations'
        ? { organizations: [{ id: 'org-1', fullName: 'Baobab Roots Pvt. Ltd.', type: 'projectProponent' }], nextCursor: null }
        : seeded;
    return { data, source: 'registry', fetchedAt: '2024-01-02T00:00:00.000Z' };
  });
  render(<CreditHistoryScreen />);
  await searchFor(A);
  await expect.element(page.getByRole('button', { name: 'Baobab Roots Pvt. Ltd.' })).toBeVisible();
  expect(page.getByText(/owned by Baobab Roots Pvt\. Ltd\. 0 t issued\./).query()).not.toBeNull();
  // the credit type and project number as every other screen writes them (it read "Ex post … (#1)")
  expect(page.getByText(/^Ex-post credits of/).query()).not.toBeNull();
  await expect.element(page.getByRole('button', { name: 'Kenya Cookstoves (No. 1)' })).toBeVisible();
  // a name that ends in a full stop ends the sentence: "Baobab Roots Pvt. Ltd.", never "Ltd.."
  expect(document.body.textContent).not.toContain('..');
  const who = rows()
    .all()
    .slice(1)
    .map((row) => row.element().querySelector('td:last-child')?.textContent);
  expect(who).toEqual(['No operator write (an app or the seed)', 'No operator write (an app or the seed)']);
});

it('refuses an empty search beside the field, and says what a search found', async () => {
  desk.answer('backOffice.read', (input) => {
    const { endpoint } = input as { endpoint: string };
    const data = endpoint === 'operatorListOrganizations' ? { organizations: [], nextCursor: null } : trail(A, 1, 2, 'more');
    return { data, source: 'registry', fetchedAt: '2024-01-02T00:00:00.000Z' };
  });
  render(
    <>
      <CreditHistoryScreen />
      <Announcer />
    </>,
  );
  const field = page.getByLabelText('Serialization or credit id');
  const announcer = () => document.querySelector('[data-announcer]')?.textContent ?? '';
  await page.getByRole('button', { name: 'Show history' }).click();
  // it did nothing at all: no word, no focus moved
  await expect.element(field).toHaveFocus();
  await expect.element(field).toHaveAttribute('aria-invalid', 'true');
  await expect.element(field).toHaveAccessibleDescription('Enter a serialization (for example RDR-KEN-1-1-1-P-0-2022) or a credit id.');
  expect(desk.calls.filter((c) => c.method === 'backOffice.read' && JSON.stringify(c.input).includes('CreditTrail'))).toEqual([]);

  // found: said, as focus stays in the field and the table appears below it unheard
  await searchFor(A);
  await expect.element(field).not.toHaveAttribute('aria-invalid');
  await expect.poll(announcer).toBe(`History of ${A}: 2 movements shown so far.`);
});
