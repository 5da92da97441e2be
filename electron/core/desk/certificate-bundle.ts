// Several retirement certificates as one file, the user's choice: one PDF with one retirement a
// page (the registry's own pages copied as they are, with pdf-lib: nothing re-rendered that could
// drift from the registry's document), or a ZIP of the separate PDFs (fflate; PDFs are compressed
// already, so they are stored).
import { zipSync } from 'fflate';
import { PDFDocument } from 'pdf-lib';

export type BundleFormat = 'pdf' | 'zip';

export interface CertificateFile {
  /** `retirement-<id>.pdf`: the entry's name in a ZIP. */
  baseName: string;
  bytes: Uint8Array;
}

/** One file holding every certificate, in the order given. */
export async function bundleCertificates(
  files: readonly CertificateFile[],
  format: BundleFormat,
  today: string,
): Promise<{ baseName: string; bytes: Uint8Array }> {
  const baseName = `retirement-certificates-${files.length}-${today}`;
  if (format === 'zip') {
    const entries: Record<string, Uint8Array> = {};
    for (const file of files) entries[file.baseName] = file.bytes;
    return { baseName, bytes: zipSync(entries, { level: 0 }) };
  }
  const combined = await PDFDocument.create();
  combined.setTitle(`Retirement certificates (${files.length})`);
  combined.setCreator('Registry Desk');
  for (const file of files) {
    const source = await PDFDocument.load(file.bytes);
    for (const page of await combined.copyPages(source, source.getPageIndices())) combined.addPage(page);
  }
  return { baseName, bytes: await combined.save() };
}
