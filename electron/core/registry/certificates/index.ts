// Retirement certificates as PDF: one A4 page, fonts shipped in resources/fonts, and the same input
// always gives the same bytes (dates and the document id come from the input, never the clock).
import { join } from 'node:path';
import { composeCertificate } from './composition';
import { fontCatalogue } from './fonts';
import { resolveResourcesDir } from './resources';
import { TextSetter } from './text-layout';
import type { CertificateInput } from './types';
import { documentInfo, retirementMoment } from './wording';

export type { CertificateInput } from './types';
export { RESOURCES_ENV, resolveResourcesDir } from './resources';

export interface RenderOptions {
  /** Folder holding fonts/; defaults to REGISTRY_DESK_RESOURCES, else the project's resources/. */
  resourcesDir?: string;
}

export async function renderCertificatePdf(input: CertificateInput, options: RenderOptions = {}): Promise<Uint8Array> {
  // Loaded on first use: evaluating pdfkit (and fontkit under it) took about 0.25 s of CPU at every
  // start of a registry or desk process, most of which never render a certificate themselves.
  const { default: PDFDocument } = await import('pdfkit');
  const moment = retirementMoment(input.retiredAt);
  const fonts = fontCatalogue(join(resolveResourcesDir(options.resourcesDir), 'fonts'));
  const doc = new PDFDocument({
    size: 'A4',
    margin: 0,
    compress: true,
    // pdfkit derives the file identifier from the Info dictionary, so fixed dates make it fixed too.
    info: documentInfo(input, moment),
    displayTitle: true,
    lang: 'en',
    // No default font: pdfkit would otherwise parse Helvetica's AFM metrics for every document
    // (about a third of a certificate's time); every text run picks a shipped font first.
    font: null as unknown as string,
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  fonts.registerAll(doc);
  composeCertificate(doc, new TextSetter(doc, fonts), input, moment);
  doc.end();
  await finished;
  return new Uint8Array(Buffer.concat(chunks));
}
