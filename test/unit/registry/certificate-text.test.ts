// The certificate's text layer read by pdf.js (Mozilla's extractor, what browsers and many tools use)
// rather than poppler: the words must be separated by real space characters in the PDF, so a reader
// that takes the text as drawn gets "This certifies that", not "Thiscertifiesthat".
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import { renderCertificatePdf } from '@registry/certificates';
import type { CertificateInput } from '@registry/certificates/types';
import { formatTonnes } from '@shared/registry/amounts';

const latin: CertificateInput = {
  registryName: 'Nordic Carbon Registry',
  retirementId: '3f2c8a7e-9b1d-4c5e-8f6a-2d7b9e0c1a34',
  retiredAt: '2024-05-01T10:15:30.250Z',
  amountTonnes: formatTonnes(12_500_000),
  beneficiary: 'Société Générale Zürich and Friends of the Sea',
  reason: 'Offsetting 2023 business travel (Scope 3), Łódź & São Paulo offices',
  comment: 'Retired for our staff in Oslo and Bergen',
  retiringOrganization: 'Ørsted Énergie Åland Oy',
  projectName: 'Río Verde Mangrove Restoration',
  projectNum: '1042',
  serialization: 'NCR-BRA-1-1042-2-A-17-2021',
  vintage: '2021',
  verifyUrl: 'https://registry.example.org/retirements/3f2c8a7e-9b1d-4c5e-8f6a-2d7b9e0c1a34',
};

/**
 * The page read by pdf.js two ways: `text` is its text content (strings as drawn, lines joined by
 * newlines, whitespace runs as one space); `drawn` is every glyph of every show-text operation in
 * order, with nothing added between operations, which is what the PDF itself says: a space is there
 * only if a space glyph was drawn (pdf.js's text content also guesses spaces from gaps).
 */
async function readWithPdfjs(bytes: Uint8Array): Promise<{ text: string; drawn: string }> {
  const pdf = await getDocument({ data: bytes, useSystemFonts: false, isEvalSupported: false }).promise;
  try {
    const page = await pdf.getPage(1);
    const content = await page.getTextContent();
    let text = '';
    for (const item of content.items) {
      if ('str' in item) text += item.str + (item.hasEOL ? '\n' : '');
    }
    const operators = await page.getOperatorList();
    let drawn = '';
    operators.fnArray.forEach((fn, index) => {
      if (fn !== OPS.showText) return;
      const [glyphs] = operators.argsArray[index] as [unknown[]];
      for (const glyph of glyphs) {
        if (typeof glyph === 'object' && glyph !== null && 'unicode' in glyph) drawn += String(glyph.unicode);
      }
    });
    return { text: text.replace(/\s+/g, ' '), drawn };
  } finally {
    await pdf.destroy();
  }
}

describe('the certificate text layer (pdf.js)', () => {
  it('reads the beneficiary, reason and amount as written, with real spaces between words', async () => {
    const { text, drawn } = await readWithPdfjs(await renderCertificatePdf(latin));
    for (const value of [
      'This certifies that',
      latin.beneficiary,
      'has permanently retired',
      `${latin.amountTonnes} tCO2e`,
      latin.projectName,
      latin.reason,
      latin.comment,
      latin.retiringOrganization,
    ]) {
      expect(text, value).toContain(value);
      // the beneficiary may wrap: within a line its words are drawn with the spaces between them
      for (const line of value === latin.beneficiary ? ['Société Générale Zürich and', 'Friends of the Sea'] : [value]) {
        expect(drawn, line).toContain(line);
      }
    }
  });
});
