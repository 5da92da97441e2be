// The certificate worker pool renders exactly what renderCertificatePdf gives in-process (the same
// bytes, so the same text as pdftotext reads it, whatever each thread remembers from earlier ones), keeps each answer with its own input when several
// run at once on every worker (three sent to each at a time), answers a render that fails with its
// reason and goes on with the next in its inbox, and at size 0 renders in the calling thread (the
// benchmark's single-thread floor).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderCertificatePdf } from '@registry/certificates';
import { createCertificatePool } from '@registry/certificates/pool';
import type { CertificateInput } from '@registry/certificates/types';

const workDir = mkdtempSync(join(tmpdir(), 'certificate-pool-test-'));
const pool = createCertificatePool({ size: 2 });
afterAll(async () => {
  await pool.close();
  rmSync(workDir, { recursive: true, force: true });
});

const input = (index: number): CertificateInput => ({
  registryName: 'Nordic Carbon Registry',
  retirementId: `3f2c8a7e-9b1d-4c5e-8f6a-${String(index).padStart(12, '0')}`,
  retiredAt: new Date(Date.UTC(2024, 4, 1) + index * 3_600_000).toISOString(),
  amountTonnes: `${index + 1}.25`,
  beneficiary: `Société Générale Zürich — ООО «Зелёная энергия» #${index}`,
  reason: 'Offsetting 2023 business travel (Scope 3)',
  comment: index % 2 === 0 ? 'שלום עולם · 碳信用注销' : '',
  retiringOrganization: 'Ørsted Énergie Åland Oy',
  projectName: 'Río Verde Mangrove Restoration',
  projectNum: '1042',
  serialization: 'NCR-BRA-1-1042-2-A-17-2021',
  vintage: '2021',
  verifyUrl: `https://registry.example.org/retirements/${index}`,
});

const text = (bytes: Uint8Array, name: string) => {
  const path = join(workDir, `${name}.pdf`);
  writeFileSync(path, bytes);
  return execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' });
};

describe('the certificate worker pool', () => {
  it('renders the same bytes as in-process, each answer with its own input, on every worker at once', async () => {
    const inputs = Array.from({ length: 6 }, (_, i) => input(i));
    // The first certificate this thread makes: nothing remembered yet (fonts.ts keeps layouts and
    // decoded glyphs across documents); the pool's worker makes the same one after others.
    const cold = await renderCertificatePdf(inputs[5]!);
    const pooled = await Promise.all(inputs.map((i) => pool.render(i)));
    expect(Buffer.from(pooled[5]!).equals(Buffer.from(cold)), 'the same bytes with nothing remembered').toBe(true);
    expect(pool.size).toBe(2);
    for (const [index, one] of inputs.entries()) {
      const here = await renderCertificatePdf(one);
      expect(Buffer.from(pooled[index]!).equals(Buffer.from(here)), `certificate ${index}`).toBe(true);
    }
    const read = text(pooled[3]!, 'pooled-3');
    expect(read).toContain('#3');
    expect(read).toContain('4.25');
    expect(read).toBe(text(await renderCertificatePdf(inputs[3]!), 'here-3'));
  });

  it('at size 0 renders in this thread, the same bytes', async () => {
    const inThread = createCertificatePool({ size: 0 });
    expect(inThread.size).toBe(0);
    const here = await inThread.render(input(5));
    expect(Buffer.from(here).equals(Buffer.from(await pool.render(input(5))))).toBe(true);
    await inThread.close();
    await expect(inThread.render(input(5))).rejects.toThrow(/closed/);
  });

  it('fails a render that cannot be made with its reason, and keeps serving', async () => {
    // Sent at once, alternately to the two workers: the failing one's worker has the third in its inbox.
    const [failed, ...rendered] = await Promise.allSettled([
      pool.render({ ...input(7), retiredAt: 'yesterday' }),
      pool.render(input(8)),
      pool.render(input(9)),
    ]);
    expect(failed).toMatchObject({ status: 'rejected', reason: { message: expect.stringMatching(/retiredAt/) } });
    for (const one of rendered) {
      expect(one.status).toBe('fulfilled');
      expect(Buffer.from((one as PromiseFulfilledResult<Uint8Array>).value.subarray(0, 5)).toString()).toBe('%PDF-');
    }
  });
});
