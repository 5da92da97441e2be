// The dry run's request is built from the very body the write sends (previewRequestOf): every field
// the preview needs is carried, accounts as one query value each and back, numbers in their
// shortest decimal form; text that names no account is refused.
import { describe, expect, it } from 'vitest';
import { accountRefText, parseAccountRefText, previewRequestOf } from '@shared/registry/operator-previews';

describe('operator previews', () => {
  it('carries a write body as the preview query, leaving out what the preview does not need', () => {
    const issuance = previewRequestOf('operatorIssueCredits', {
      projectId: 'p',
      vintage: '2024',
      type: 'exAnte',
      amount: 1234.5,
      bufferBasisPoints: 1500,
      monitoringPeriodStart: '2024-01-01',
      monitoringPeriodEnd: '2024-12-31',
      verificationBodyId: 'v',
      receivingOrganizationId: 'o',
      files: [{ fileName: 'report.pdf' }],
    });
    expect(issuance).toEqual({
      params: { operation: 'issuance' },
      query: {
        projectId: 'p',
        vintage: '2024',
        type: 'exAnte',
        amount: '1234.5',
        bufferBasisPoints: '1500',
        monitoringPeriodStart: '2024-01-01',
        monitoringPeriodEnd: '2024-12-31',
        verificationBodyId: 'v',
        receivingOrganizationId: 'o',
      },
    });
    const cancel = previewRequestOf('operatorCancel', {
      from: { kind: 'inventory', organizationId: 'org:1' },
      creditId: 'c',
      amount: 0.000001,
      reason: 'R',
    });
    expect(cancel).toEqual({
      params: { operation: 'cancellation' },
      query: { from: 'inventory:org:1', creditId: 'c', amount: '0.000001', reason: 'R' },
    });
  });

  it('writes every account as one value and reads it back; refuses text that names none', () => {
    for (const ref of [
      { kind: 'inventory', organizationId: 'a:b' },
      { kind: 'warehouse', organizationId: 'x' },
      { kind: 'buffer' },
      { kind: 'adjustment' },
      { kind: 'registry' },
      { kind: 'wallet', address: `0x${'a'.repeat(40)}` },
    ] as const) {
      expect(parseAccountRefText(accountRefText(ref))).toEqual(ref);
    }
    for (const text of ['', 'inventory', 'inventory:', 'buffer:x', 'wallet', 'bank:1']) expect(parseAccountRefText(text)).toBeUndefined();
  });
});
