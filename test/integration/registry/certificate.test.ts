// Retirement certificates are checked as a reader would: the PDF is written to disk and read back
// with poppler (pdftotext, pdfinfo, pdffonts), and every printed value is compared with the input.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderCertificatePdf, RESOURCES_ENV, resolveResourcesDir } from '@registry/certificates';
import type { CertificateInput } from '@registry/certificates/types';
import { formatTonnes, formatTonnesForPeople } from '@shared/registry/amounts';

const workDir = mkdtempSync(join(tmpdir(), 'certificate-test-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

const varied: CertificateInput = {
  registryName: 'Nordic Carbon Registry',
  retirementId: '3f2c8a7e-9b1d-4c5e-8f6a-2d7b9e0c1a34',
  retiredAt: '2024-05-01T10:15:30.250Z',
  amountTonnes: formatTonnes(12_500_000),
  beneficiary: 'Société Générale Zürich — Ελληνική Εταιρεία — ООО «Зелёная энергия»',
  reason: 'Offsetting 2023 business travel (Scope 3), Łódź & São Paulo offices',
  comment: 'Retired for our staff. שלום עולם שרה · شركة الطاقة الخضراء · 碳信用注销 カーボン 탄소 크레딧',
  retiringOrganization: 'Ørsted Énergie Åland Oy',
  projectName: 'Río Verde Mangrove Restoration',
  projectNum: '1042',
  serialization: 'NCR-BRA-1-1042-2-A-17-2021',
  vintage: '2021',
  verifyUrl: 'https://registry.example.org/retirements/3f2c8a7e-9b1d-4c5e-8f6a-2d7b9e0c1a34',
};

let fileCount = 0;
async function renderToFile(input: CertificateInput): Promise<{ path: string; bytes: Uint8Array }> {
  const bytes = await renderCertificatePdf(input);
  const path = join(workDir, `certificate-${++fileCount}.pdf`);
  writeFileSync(path, bytes);
  return { path, bytes };
}

function poppler(tool: string, ...args: string[]): string {
  return execFileSync(tool, args, { encoding: 'utf8' });
}

// pdftotext wraps right-to-left runs in bidi embedding marks and keeps the page's line breaks;
// reading the words back is what matters, so both are removed before comparing.
function readableText(path: string): string {
  return normalise(poppler('pdftotext', '-layout', path, '-'));
}

function normalise(text: string): string {
  return (
    text
      .replace(/[\u200E\u200F\u202A-\u202E\u2066-\u2069]/g, '')
      // A line break between Chinese or Japanese characters is no space: join them again.
      .replace(
        /(?<=[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])\s+(?=[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])/gu,
        '',
      )
      .replace(/\s+/g, ' ')
      .trim()
  );
}

function pageCountAndSize(path: string) {
  const info = poppler('pdfinfo', path);
  return { pages: info.match(/^Pages:\s+(\d+)/m)?.[1], size: info.match(/^Page size:\s+(.+)$/m)?.[1] };
}

describe('renderCertificatePdf', () => {
  it('prints every field of a certificate mixing Latin, Greek, Cyrillic, Hebrew, Arabic and CJK', async () => {
    const { path } = await renderToFile(varied);
    const text = readableText(path);
    const leftToRight: Array<Exclude<keyof CertificateInput, 'transparency' | 'retiringWallet' | 'verifyUrlIsPlaceholder'>> = [
      'registryName',
      'retirementId',
      'beneficiary',
      'reason',
      'retiringOrganization',
      'projectName',
      'projectNum',
      'serialization',
      'vintage',
      'verifyUrl',
    ];
    for (const field of leftToRight) expect(text, field).toContain(normalise(varied[field]));
    expect(text).toContain('Retirement Certificate');
    expect(text).toContain(`${varied.amountTonnes} tCO2e`);
    expect(text).toContain(varied.retiredAt.slice(0, 10)); // the date, YYYY-MM-DD
    expect(text).toContain(new Date(varied.retiredAt).toISOString()); // the exact time in the small print
    // Right-to-left words come back in visual order around the left-to-right ones: compare word by word.
    for (const word of varied.comment.split(/\s+/)) expect(text, `comment word ${word}`).toContain(word);
  });

  it('prints a large amount grouped as the desk shows it, and a wallet owner on one line under its own label', async () => {
    const wallet = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
    const input = { ...varied, amountTonnes: formatTonnesForPeople(1_234_567_890_001), retiringOrganization: '', retiringWallet: wallet };
    expect(input.amountTonnes).toBe('1,234,567.890001');
    const { path } = await renderToFile(input);
    expect(readableText(path)).toContain('1,234,567.890001 tCO2e');
    // Line by line as printed: the whole address is on one line, right under its label; a wallet is
    // no organization, so there is no organization's label.
    const lines = poppler('pdftotext', '-layout', path, '-')
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
    expect(lines[lines.indexOf('RETIRING WALLET') + 1]).toBe(wallet);
    expect(lines.join('\n')).not.toContain('ORGANIZATION');
    expect(pageCountAndSize(path).pages).toBe('1');
    // An organization and a wallet: both, each under its own label.
    const both = readableText((await renderToFile({ ...input, retiringOrganization: varied.retiringOrganization })).path);
    expect(both).toContain(`RETIRING ORGANIZATION ${varied.retiringOrganization} RETIRING WALLET ${wallet}`);
  });

  it('gives letter-spaced headings back as words, with and without -layout', async () => {
    const { path } = await renderToFile(varied);
    for (const text of [readableText(path), normalise(poppler('pdftotext', path, '-'))]) {
      for (const heading of ['RETIRING ORGANIZATION', 'DATE OF RETIREMENT (UTC)', 'REASON FOR RETIREMENT', 'RETIREMENT ID', 'RETIRED'])
        expect(text, heading).toContain(heading);
      expect(text).toContain(varied.registryName);
      expect(text).not.toMatch(/\b(?:\p{Lu} ){3,}/u);
    }
  });

  it('is one A4 page', async () => {
    const { path } = await renderToFile(varied);
    expect(pageCountAndSize(path)).toEqual({ pages: '1', size: '595.28 x 841.89 pts (A4)' });
  });

  it('embeds a shipped fallback font for each script the primary font lacks', async () => {
    const { path } = await renderToFile(varied);
    const fonts = poppler('pdffonts', path);
    for (const family of ['DejaVuSerif', 'DejaVuSerif-Bold', 'NotoSerifHebrew', 'NotoNaskhArabic', 'NotoSansCJK']) {
      expect(fonts, family).toMatch(new RegExp(`\\+${family}\\S*\\s.*\\byes\\s+yes\\b`));
    }
    const latinOnly = await renderToFile({ ...varied, comment: 'Plain Latin only' });
    expect(poppler('pdffonts', latinOnly.path)).not.toMatch(/Noto/);
  });

  it('gives the same bytes in a fresh process (nothing depends on the clock, randomness or caches)', async () => {
    const here = await renderCertificatePdf(varied);
    const script = join(workDir, 'render-in-child.mts');
    const indexPath = join(import.meta.dirname, '..', '..', '..', 'electron', 'core', 'registry', 'certificates', 'index.ts');
    writeFileSync(
      script,
      `import { renderCertificatePdf } from ${JSON.stringify(indexPath)};\n` +
        `const bytes = await renderCertificatePdf(${JSON.stringify(varied)});\n` +
        `process.stdout.write(Buffer.from(bytes).toString('base64'));\n`,
    );
    const projectRoot = join(import.meta.dirname, '..', '..', '..');
    const child = execFileSync(process.execPath, ['--import', 'tsx', script], { cwd: projectRoot, encoding: 'utf8' });
    expect(Buffer.from(child, 'base64').equals(Buffer.from(here))).toBe(true);
  });

  it("keeps every letter's text after a certificate that set it only as part of an accented one", async () => {
    // The fonts' glyphs are kept for the process's life; a glyph first reached as part of another
    // (the z inside ž) must not lose its character for every later certificate's text.
    const freshFonts = () => {
      const dir = mkdtempSync(join(workDir, 'fonts-'));
      cpSync(join(resolveResourcesDir(), 'fonts'), join(dir, 'fonts'), { recursive: true });
      return dir;
    };
    const accented = 'ŽžŹźŻżÉéÁáŚśĆćŃńÓóÚúÝýÇçÑñÄäÖöÜüÅåÈèÂâ';
    const plain: CertificateInput = {
      ...varied,
      beneficiary: 'lazy zebra size ABCDEFGHIJKLMNOPQRSTUVWXYZ',
      reason: 'abcdefghijklmnopqrstuvwxyz',
      comment: 'quiz jazz fizz buzz',
      retiringOrganization: 'Zenith Zone Company',
      projectName: 'Azure Zephyr Plaza',
    };
    const warm = freshFonts();
    await renderCertificatePdf(
      { ...varied, beneficiary: accented, reason: accented, comment: accented, retiringOrganization: accented },
      { resourcesDir: warm },
    );
    const after = await renderCertificatePdf(plain, { resourcesDir: warm });
    const path = join(workDir, 'after-accented.pdf');
    writeFileSync(path, after);
    // (spaces aside: pdftotext may see one in a wide kerning pair, as between X and Y)
    const letters = (text: string) => text.replace(/\s+/g, '');
    const text = readableText(path);
    for (const field of [plain.beneficiary, plain.reason, plain.comment, plain.retiringOrganization, plain.projectName])
      expect(letters(text), text).toContain(letters(field));
    // and the same bytes as a catalogue that never set the accented letters
    expect(Buffer.from(after).equals(Buffer.from(await renderCertificatePdf(plain, { resourcesDir: freshFonts() })))).toBe(true);
  });

  it('makes the verify URL a clickable link and fills the metadata from the input', async () => {
    const { path, bytes } = await renderToFile(varied);
    const raw = Buffer.from(bytes).toString('latin1');
    expect(raw).toContain(`/URI (${varied.verifyUrl})`);
    const info = poppler('pdfinfo', '-isodates', path);
    expect(info).toMatch(new RegExp(`^Title:\\s+Retirement Certificate ${varied.retirementId}$`, 'm'));
    expect(info).toMatch(new RegExp(`^Author:\\s+${varied.registryName}$`, 'm'));
    const retiredAtSeconds = varied.retiredAt.replace(/\.\d+Z$/, 'Z');
    expect(info).toMatch(new RegExp(`^CreationDate:\\s+${retiredAtSeconds}$`, 'm'));
    expect(info).toMatch(new RegExp(`^ModDate:\\s+${retiredAtSeconds}$`, 'm'));
  });

  it('says a placeholder address (a registry without its public address, as the demo) is one, and links nowhere', async () => {
    const { path, bytes } = await renderToFile({ ...varied, verifyUrlIsPlaceholder: true });
    expect(Buffer.from(bytes).toString('latin1')).not.toContain('/URI (');
    const text = readableText(path);
    expect(text).toContain('the address below is a placeholder and leads nowhere');
    expect(text).not.toContain('Verify this retirement at');
    expect(text).toContain(normalise(varied.verifyUrl));
  });

  it('gives byte-identical output for the same input, and different output for a different one', async () => {
    const first = await renderCertificatePdf(varied);
    const second = await renderCertificatePdf({ ...varied });
    expect(Buffer.from(first).equals(Buffer.from(second))).toBe(true);
    const otherDay = await renderCertificatePdf({ ...varied, retiredAt: '2024-05-02T10:15:30.250Z' });
    expect(Buffer.from(first).equals(Buffer.from(otherDay))).toBe(false);
  });

  it('keeps a 300-character beneficiary and a long comment whole on one page', async () => {
    const beneficiary = Array.from({ length: 30 }, (_, i) => `Bénéficiaire${String(i).padStart(2, '0')}`)
      .join(' ')
      .slice(0, 300);
    const comment = Array.from({ length: 40 }, (_, i) => `Sentence ${i} of a long remark about the retirement.`).join(' ');
    expect(beneficiary).toHaveLength(300);
    const { path } = await renderToFile({ ...varied, beneficiary, comment });
    expect(pageCountAndSize(path).pages).toBe('1');
    const text = readableText(path);
    expect(text).toContain(beneficiary);
    expect(text).toContain(comment);
  });

  it('stays one page however long every field is (cut with an ellipsis as a last resort)', async () => {
    const huge = (seed: string) => `${seed} `.repeat(400);
    const input: CertificateInput = {
      ...varied,
      registryName: huge('Registry'),
      beneficiary: huge('Beneficiary'),
      reason: huge('Reason'),
      comment: huge('Comment'),
      retiringOrganization: huge('Organization'),
      projectName: huge('Project'),
      serialization: 'X'.repeat(2000),
      verifyUrl: `https://registry.example.org/${'a'.repeat(2000)}`,
    };
    const { path } = await renderToFile(input);
    expect(pageCountAndSize(path).pages).toBe('1');
    const text = readableText(path);
    expect(text).toContain('…');
    expect(text).toContain(`${varied.amountTonnes} tCO2e`);
  });

  it('states its transparency-log entry, the checkpoint that includes it and how to check it', async () => {
    const transparency = {
      origin: 'registry.example.org/transparency/0a1b2c3d',
      leafIndex: 4217,
      checkpointSize: 4300,
      checkpointRoot: 'n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg=',
      checkpointTime: '2024-05-01T10:15:33.000Z',
      apiBaseUrl: 'https://api.registry.example.org',
    };
    const { path } = await renderToFile({ ...varied, transparency });
    expect(pageCountAndSize(path).pages).toBe('1');
    const text = readableText(path).replace(/\s+/g, ' ');
    for (const value of [
      transparency.origin,
      'entry 4217',
      'checkpoint of 4300 entries',
      transparency.checkpointTime,
      transparency.checkpointRoot,
    ]) {
      expect(text).toContain(value);
    }
    expect(text).toContain('npm run verify -- https://api.registry.example.org');
    // The whole instruction, to its last words: a cut-off proof cannot be followed.
    expect(text).toContain("into that root (RFC 9162, section 2.1.3.2) with the registry's published key.");
  });

  it('leaves the comment section out when the comment is empty', async () => {
    const withComment = readableText((await renderToFile({ ...varied, comment: 'Thank you' })).path);
    expect(withComment).toContain('COMMENT');
    const { path } = await renderToFile({ ...varied, comment: '' });
    const text = readableText(path);
    expect(pageCountAndSize(path).pages).toBe('1');
    expect(text).not.toContain('COMMENT');
    expect(text).not.toContain('“');
    expect(text).toContain(normalise(varied.beneficiary));
  });

  it('rejects a retiredAt that is not a date', async () => {
    await expect(renderCertificatePdf({ ...varied, retiredAt: 'yesterday' })).rejects.toThrow(/retiredAt/);
  });
});

describe('resources folder', () => {
  it('is found from the source file without any configuration', () => {
    const saved = process.env[RESOURCES_ENV];
    delete process.env[RESOURCES_ENV];
    try {
      expect(resolveResourcesDir()).toBe(join(import.meta.dirname, '..', '..', '..', 'resources'));
    } finally {
      if (saved !== undefined) process.env[RESOURCES_ENV] = saved;
    }
  });

  it('follows the parameter, then the environment variable', async () => {
    const emptyDir = mkdtempSync(join(workDir, 'no-fonts-'));
    await expect(renderCertificatePdf(varied, { resourcesDir: emptyDir })).rejects.toThrow(/fonts/);
    const saved = process.env[RESOURCES_ENV];
    process.env[RESOURCES_ENV] = emptyDir;
    try {
      expect(() => resolveResourcesDir()).toThrow(emptyDir);
      expect(resolveResourcesDir(join(import.meta.dirname, '..', '..', '..', 'resources'))).toMatch(/resources$/);
    } finally {
      if (saved === undefined) delete process.env[RESOURCES_ENV];
      else process.env[RESOURCES_ENV] = saved;
    }
  });
});
