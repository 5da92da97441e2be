// Certificates per second, rendered in-process, against a floor: the same number of minimal one-page
// PDFs (one line of text, pdfkit's built-in Helvetica) made in the same run on the same machine.
import PDFDocument from 'pdfkit';
import { renderCertificatePdf } from '../electron/core/certificates';
import type { CertificateInput } from '../electron/core/certificates/types';
import type { BenchFigure, BenchSuite } from './types';

const RUN_MS = 3000;
const TARGET_PER_SECOND = 50;

function sampleInput(index: number): CertificateInput {
  // Every certificate differs a little, as in a real batch, and mixes scripts so fallback fonts are used.
  return {
    registryName: 'Nordic Carbon Registry',
    retirementId: `3f2c8a7e-9b1d-4c5e-8f6a-${String(index).padStart(12, '0')}`,
    retiredAt: new Date(Date.UTC(2024, 0, 1) + index * 60_000).toISOString(),
    amountTonnes: `${(index % 900) + 1}.5`,
    beneficiary: `Société Générale Zürich — Ελληνική Εταιρεία — ООО «Зелёная энергия» #${index}`,
    reason: 'Offsetting 2023 business travel emissions (Scope 3, category 6)',
    comment: index % 2 === 0 ? 'On behalf of our staff · שלום · شركة الطاقة · 碳信用' : '',
    retiringOrganization: 'Ørsted Énergie Åland Oy',
    projectName: 'Río Verde Mangrove Restoration',
    projectNum: '1042',
    serialization: 'NCR-BRA-1-1042-2-A-17-2021',
    vintage: '2021',
    verifyUrl: `https://registry.example.org/retirements/${index}`,
  };
}

async function minimalPdf(index: number): Promise<Uint8Array> {
  const doc = new PDFDocument({ size: 'A4', info: { CreationDate: new Date(Date.UTC(2024, 0, 1)) } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve) => doc.on('end', resolve));
  doc.text(`Retirement ${index}`);
  doc.end();
  await done;
  return new Uint8Array(Buffer.concat(chunks));
}

export const suite: BenchSuite = {
  name: 'certificates',
  async run(): Promise<BenchFigure[]> {
    await renderCertificatePdf(sampleInput(0)); // read and parse the fonts once, as a running app has
    let count = 0;
    let bytes = 0;
    const start = performance.now();
    while (performance.now() - start < RUN_MS) {
      bytes += (await renderCertificatePdf(sampleInput(count))).length;
      count += 1;
    }
    const certificateSeconds = (performance.now() - start) / 1000;

    await minimalPdf(0);
    const floorStart = performance.now();
    for (let i = 0; i < count; i += 1) await minimalPdf(i);
    const floorSeconds = (performance.now() - floorStart) / 1000;

    const perSecond = count / certificateSeconds;
    const floorPerSecond = count / floorSeconds;
    return [
      {
        suite: 'certificates',
        name: 'certificate PDFs per second (in-process)',
        value: perSecond,
        unit: 'pdf/s',
        floor: floorPerSecond,
        ratio: perSecond / floorPerSecond,
        target: `>= ${TARGET_PER_SECOND} pdf/s`,
        pass: perSecond >= TARGET_PER_SECOND,
      },
      { suite: 'certificates', name: 'mean certificate size', value: bytes / count / 1024, unit: 'KiB' },
    ];
  },
};
