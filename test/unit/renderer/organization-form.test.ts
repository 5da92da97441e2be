// The operator's organization edit: only the changed fields are sent (text trimmed, the country
// upper-cased, an emptied optional field as null), each with its before → after for the review, and
// the registry's own schema names what is wrong.
import { describe, expect, it } from 'vitest';
import { formFromOrganization, organizationEdit } from '@renderer/screens/back-office/organizationForm';

const original = formFromOrganization({
  fullName: 'Lamu Growers',
  type: 'projectProponent',
  countryCode: 'KE',
  city: 'Lamu',
  zip: '',
  physicalAddress: '',
  registrationNumber: 'KE-1',
  website: 'https://lamu.example',
  logo: '',
  organizationIndustries: { code: '0210', name: 'Forestry' },
  isPublic: true,
});

describe('organization edit', () => {
  it('sends only what changed, an emptied optional field as null, with before and after', () => {
    const edit = organizationEdit(
      {
        ...original,
        fullName: '  Lamu Mangrove Growers ',
        countryCode: 'tz',
        website: ' ',
        industryCode: '',
        industryName: '',
        isPublic: false,
      },
      original,
    );
    expect(edit.ok).toBe(true);
    if (edit.ok !== true) return;
    expect(edit.body).toEqual({
      fullName: 'Lamu Mangrove Growers',
      countryCode: 'TZ',
      website: null,
      organizationIndustries: null,
      isPublic: false,
    });
    expect(edit.changes.map((c) => [c.label, c.before, c.after])).toEqual([
      ['Name', 'Lamu Growers', 'Lamu Mangrove Growers'],
      ['Country', expect.stringContaining('(KE)'), expect.stringContaining('(TZ)')],
      ['Website', 'https://lamu.example', ''],
      ['Industry', '0210 · Forestry', ''],
      ['Public', 'Yes', 'No'],
    ]);
  });

  it('says when nothing changed, and names a field the registry would refuse', () => {
    expect(organizationEdit({ ...original, city: 'Lamu ' }, original)).toEqual({ ok: 'unchanged' });
    const bad = organizationEdit({ ...original, fullName: ' ', countryCode: 'ZZ' }, original);
    expect(bad.ok).toBe(false);
    if (bad.ok !== false) return;
    // each named by its form field, so it is shown beside it
    expect(bad.errors).toEqual([
      { field: 'fullName', message: 'Must not be empty.' },
      { field: 'countryCode', message: expect.stringMatching(/country code\.$/) },
    ]);
  });
});
