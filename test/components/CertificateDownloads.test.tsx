// "Download certificates (n)" takes out of the selection only the retirements whose certificates it
// saved: rows ticked while a long download ran stay ticked (they were once all unticked at its end,
// though never downloaded), and so do those whose certificate failed, for another try.
import { afterEach, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import type { DeskOutput } from '@shared/desk/api';
import { CertificateDownloads } from '@renderer/screens/retirements/CertificateDownloads';
import { useRetirementList } from '@renderer/stores/retirements';
import { render } from './render';
import { deskError, installScriptedBridge } from './scripted-bridge';

const desk = installScriptedBridge();

afterEach(() => {
  desk.reset();
  useRetirementList.setState({ selected: {}, selectionAnchor: null });
});

const pdf = (id: string): DeskOutput<'retirements.certificate'> => ({
  handle: `file-handle-${id}-0000000000`,
  kind: 'pdf',
  filename: `certificate-${id}.pdf`,
  size: 1000,
});

/** Certificates the test hands out one by one: each waits until `finish(id)`. */
function heldCertificates(failing: string[] = []) {
  const pending = new Map<string, () => void>();
  desk.answer(
    'retirements.certificate',
    (input) =>
      new Promise((resolve) => {
        const { id } = input as { id: string };
        pending.set(id, () => resolve(failing.includes(id) ? deskError('not_found', 'No such certificate.') : pdf(id)));
      }),
  );
  return {
    asked: (id: string) => pending.has(id),
    finish(id: string) {
      pending.get(id)!();
      pending.delete(id);
    },
  };
}

const selected = () => Object.keys(useRetirementList.getState().selected).sort();

it('keeps the rows ticked while the download ran', async () => {
  const certificates = heldCertificates();
  useRetirementList.setState({ selected: { 'retirement-a': true, 'retirement-b': true } });
  render(<CertificateDownloads />);
  await page.getByRole('button', { name: 'Download certificates (2)' }).click();
  await expect.poll(() => certificates.asked('retirement-a')).toBe(true);
  // Ticked while the first certificate is on its way.
  useRetirementList.getState().toggleSelected('retirement-c');
  certificates.finish('retirement-a');
  await expect.poll(() => certificates.asked('retirement-b')).toBe(true);
  certificates.finish('retirement-b');
  await expect.element(page.getByRole('button', { name: 'Download certificates (1)' })).toBeVisible();
  expect(selected()).toEqual(['retirement-c']);
});

it('keeps the retirements whose certificate failed, and drops those saved', async () => {
  const certificates = heldCertificates(['retirement-b']);
  useRetirementList.setState({ selected: { 'retirement-a': true, 'retirement-b': true } });
  render(<CertificateDownloads />);
  await page.getByRole('button', { name: 'Download certificates (2)' }).click();
  await expect.poll(() => certificates.asked('retirement-a')).toBe(true);
  certificates.finish('retirement-a');
  await expect.poll(() => certificates.asked('retirement-b')).toBe(true);
  certificates.finish('retirement-b');
  await expect.element(page.getByRole('alert')).toHaveTextContent('1 certificate could not be saved');
  expect(selected()).toEqual(['retirement-b']);
});

it('says what was saved, how many and where; and what was not', async () => {
  const certificates = heldCertificates();
  // The desk window's save dialog: each file's path, one save cancelled.
  desk.saveFile(async ({ handle }) =>
    handle.includes('retirement-b') ? { saved: false } : { saved: true, path: `/home/ada/Downloads/${handle.slice(12, 24)}.pdf` },
  );
  useRetirementList.setState({ selected: { 'retirement-a': true, 'retirement-b': true, 'retirement-c': true } });
  render(<CertificateDownloads />);
  await page.getByRole('button', { name: 'Download certificates (3)' }).click();
  for (const id of ['retirement-a', 'retirement-b', 'retirement-c']) {
    await expect.poll(() => certificates.asked(id)).toBe(true);
    certificates.finish(id);
  }
  await expect
    .element(page.getByRole('status'))
    .toHaveTextContent(
      'Saved 2 certificates as retirement-a.pdf, retirement-c.pdf, to /home/ada/Downloads. 1 not saved (the save was cancelled).',
    );

  // One ZIP of two, in the browser: its name, the count inside, and the browser's downloads folder.
  desk.saveFile(async () => ({ saved: true }));
  desk.answer('retirements.certificates', () => ({
    handle: 'file-handle-bundle-0000000000',
    kind: 'zip',
    filename: 'certificates.zip',
    size: 2000,
  }));
  useRetirementList.setState({ selected: { 'retirement-d': true, 'retirement-e': true } });
  await page.getByRole('combobox', { name: 'Save as' }).selectOptions('ZIP of PDFs');
  await page.getByRole('button', { name: 'Download certificates (2)' }).click();
  await expect
    .element(page.getByRole('status'))
    .toHaveTextContent("Saved 2 certificates in one file, certificates.zip, to this browser's downloads folder.");
  // Every selected one saved, the button went with the selection: focus is on the outcome, not lost.
  await expect.element(page.getByRole('status')).toBeVisible();
  await expect.poll(() => document.activeElement?.matches('.inline-action') ?? false).toBe(true);
});
