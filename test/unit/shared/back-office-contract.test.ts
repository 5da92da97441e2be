// The back office's contract names every operator row of the endpoint table exactly once, as a read
// (GET, not audited) or a write (audited, idempotent): screens are offered exactly what the table has.
import { describe, expect, it } from 'vitest';
import { OPERATOR_ENDPOINT_NAMES, OPERATOR_READS, OPERATOR_WRITES } from '@shared/desk/back-office';
import { endpoints } from '@shared/registry/endpoints';

describe('the back-office endpoint names', () => {
  it('split the operator rows into GET reads and audited writes', () => {
    expect([...OPERATOR_READS, ...OPERATOR_WRITES].sort()).toEqual([...OPERATOR_ENDPOINT_NAMES].sort());
    for (const name of OPERATOR_READS) expect([endpoints[name].method, endpoints[name].audit]).toEqual(['GET', undefined]);
    for (const name of OPERATOR_WRITES) expect(endpoints[name].audit).toEqual(expect.any(String));
    expect(OPERATOR_ENDPOINT_NAMES).not.toContain('createOperatorToken');
  });
});
