// A retirement's details panel. It says what became of a certificate download. Moved to another
// retirement (Enter on another row) while the first one's certificate is still being prepared, or
// after it failed, the new retirement's panel starts clean, with its own "Download certificate
// (PDF)" and no error of the other one's (they once shared one busy flag and error, as the panel
// was reused for the next id).
import { afterEach, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import type { DeskOutput } from '@shared/desk/api';
import { RetirementDetails } from '@renderer/screens/retirements/RetirementDetails';
import { useNavigation } from '@renderer/stores/navigation';
import { usePageTitle } from '@renderer/lib/pageTitle';
import { render } from './render';
import { deskError, installScriptedBridge } from './scripted-bridge';

const desk = installScriptedBridge();

afterEach(() => {
  desk.reset();
  useNavigation.setState({ retirementId: null });
});

const NOW = new Date().toISOString();

function retirement(id: string, beneficiary: string): DeskOutput<'retirements.get'> {
  return {
    asOf: NOW,
    offline: false,
    retirement: {
      id,
      createdAt: NOW,
      isClaimed: true,
      reason: 'Offsetting 2025 travel',
      comment: '',
      beneficiary,
      organizationId: 'organization-1',
      organizationOwner: { id: 'organization-1', fullName: 'Acme', logo: '', publicUrl: '' },
      serialization: `RDR-KEN-1-12-${id}`,
      vintage: '2023',
      amount: 1.5,
      project: { id: 'project-1', fullName: 'Kenya Cookstoves', url: '', publicUrl: '', num: '12' },
    },
  };
}

/** The panel as the retirements screen shows it: for the retirement navigation has open, beside its rows. */
function OpenRetirement() {
  const id = useNavigation((s) => s.retirementId);
  return (
    <>
      <table aria-label="Retirements">
        <tbody>
          {['retirement-a', 'retirement-b'].map((row) => (
            <tr key={row} data-retirement-id={row}>
              <td>
                <button type="button" onClick={() => useNavigation.getState().openRetirement(row)}>
                  Open {row}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {id && <RetirementDetails id={id} />}
    </>
  );
}

function showRetirements() {
  const byId: Record<string, DeskOutput<'retirements.get'>> = {
    'retirement-a': retirement('retirement-a', 'Alice'),
    'retirement-b': retirement('retirement-b', 'Bob'),
  };
  desk.answer('retirements.get', (input) => byId[(input as { id: string }).id]!);
  useNavigation.getState().openRetirement('retirement-a');
  render(<OpenRetirement />);
}

const panel = () => page.getByRole('complementary', { name: 'Retirement details' });

it('another retirement opened while the certificate is prepared is not shown as preparing', async () => {
  desk.answer('retirements.certificate', () => new Promise<never>(() => {}));
  showRetirements();
  await expect.element(panel().getByText('Alice')).toBeVisible();
  await panel().getByRole('button', { name: 'Download certificate (PDF)' }).click();
  await expect.element(panel().getByRole('button', { name: 'Preparing certificate…' })).toBeVisible();

  // Enter on the other row: its panel takes focus (its heading), and gives it back to that row on closing.
  const rowB = page.getByRole('button', { name: 'Open retirement-b' });
  (rowB.element() as HTMLElement).focus();
  await userEvent.keyboard('{Enter}');
  await expect.element(panel().getByText('Bob')).toBeVisible();
  await expect.element(panel().getByRole('button', { name: 'Download certificate (PDF)' })).toBeVisible();
  await expect.element(panel().getByRole('button', { name: 'Download certificate (PDF)' })).not.toHaveAttribute('aria-disabled');
  await expect.element(panel().getByRole('heading', { name: 'Retirement' })).toHaveFocus();
  await panel().getByRole('button', { name: 'Close details' }).click();
  await expect.element(rowB).toHaveFocus();
});

it('another retirement opened after a certificate failed does not show that error', async () => {
  desk.answer('retirements.certificate', () => deskError('offline', 'The registry cannot be reached.'));
  showRetirements();
  await expect.element(panel().getByText('Alice')).toBeVisible();
  await panel().getByRole('button', { name: 'Download certificate (PDF)' }).click();
  await expect.element(panel().getByText('The certificate could not be saved', { exact: false })).toBeVisible();

  useNavigation.getState().openRetirement('retirement-b');
  await expect.element(panel().getByText('Bob')).toBeVisible();
  await expect.element(panel().getByText('The certificate could not be saved', { exact: false })).not.toBeInTheDocument();
});

it('says where the certificate was saved, or that it was not', async () => {
  desk.answer('retirements.certificate', () => ({
    handle: 'file-handle-a-0000000000',
    kind: 'pdf',
    filename: 'retirement-a.pdf',
    size: 1000,
  }));
  desk.saveFile(async () => ({ saved: true }));
  showRetirements();
  await expect.element(panel().getByText('Alice')).toBeVisible();
  const download = panel().getByRole('button', { name: 'Download certificate (PDF)' });
  await download.click();
  await expect
    .element(panel().getByRole('status'))
    .toHaveTextContent("Saved 1 certificate as retirement-a.pdf, to this browser's downloads folder.");

  desk.saveFile(async () => ({ saved: false }));
  await download.click();
  await expect.element(panel().getByRole('status')).toHaveTextContent('Nothing was saved: the save was cancelled.');
});

it('names the open retirement in the window title, and gives the title back on closing', async () => {
  showRetirements();
  await expect.element(panel().getByText('Alice')).toBeVisible();
  expect(usePageTitle.getState().record).toBe('Retirement: 1.5 t of Kenya Cookstoves');
  await panel().getByRole('button', { name: 'Close details' }).click();
  await expect.poll(() => usePageTitle.getState().record).toBeNull();
});
