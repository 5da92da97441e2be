// What an audit entry touched, as records the desk can open: from the input and result fields that
// name them, the result's id for creations, and the path's id for actions on one record.
import { describe, expect, it } from 'vitest';
import { touchedBy } from '@renderer/screens/back-office/auditTargets';

describe('audit entry targets', () => {
  it('names the created project and its organization, not its sector', () => {
    expect(
      touchedBy({
        action: 'projects.create',
        targetIds: ['forestry', 'org-a', 'p1', '0xabc'],
        detail: { input: { sector: { id: 'forestry' }, organizationId: 'org-a' }, result: { id: 'p1', contractAddress: '0xabc' } },
      }),
    ).toEqual([
      { kind: 'organization', id: 'org-a' },
      { kind: 'project', id: 'p1' },
    ]);
  });

  it("names the path's record of a status change and of an installation's removal", () => {
    expect(
      touchedBy({
        action: 'projects.setStatus',
        targetIds: ['p1', 'e1'],
        detail: { input: { status: 'submitted' }, result: { id: 'p1' } },
      }),
    ).toEqual([{ kind: 'project', id: 'p1' }]);
    expect(touchedBy({ action: 'installations.remove', targetIds: ['i1'], detail: { input: {}, error: { status: 404 } } })).toEqual([
      { kind: 'installation', id: 'i1' },
    ]);
  });

  it('names the credit and organizations of a transfer, and the nested results of creations', () => {
    expect(
      touchedBy({
        action: 'credits.transfer',
        targetIds: ['org-a', 'c1'],
        detail: { input: { from: { kind: 'inventory', organizationId: 'org-a' }, to: { kind: 'registry' }, creditId: 'c1' } },
      }),
    ).toEqual([
      { kind: 'organization', id: 'org-a' },
      { kind: 'credit', id: 'c1' },
    ]);
    expect(
      touchedBy({
        action: 'operators.create',
        targetIds: ['op1'],
        detail: { input: { name: 'Ada' }, result: { operator: { id: 'op1' } } },
      }),
    ).toEqual([{ kind: 'operator', id: 'op1' }]);
    // an id the entry does not name is never offered
    expect(touchedBy({ action: 'apps.create', targetIds: [], detail: { result: { id: 'a1' } } })).toEqual([]);
  });
});
