// The operator's project form: a new draft's body holds every field the form has, an edit sends only
// what changed (null clearing an optional field), and the registry's schemas name what is wrong.
// Its numbers are typed as the desk's locale writes them ("48,1" in de-DE was "Invalid input: …NaN").
import { describe, expect, it } from 'vitest';
import {
  createBody,
  emptyDocument,
  emptyProjectForm,
  formFromProject,
  updateBody,
  type ProjectForm,
} from '@renderer/screens/back-office/projectForm';
import { localeNumberText, readCoordinate, readMitigation } from '@renderer/screens/back-office/projectNumbers';
import type { Project } from '@shared/registry/resources';
import { draftProject } from '@test/support/draft-project';

const DOC_ID = '0b6f5d3c-5a43-4b8e-9d0e-6a1e2f3a4b5c';
const filled: ProjectForm = {
  ...emptyProjectForm('org-a'),
  fullName: 'Mangroves of Lamu',
  shortDescription: 'Mangroves',
  description: 'Restores mangroves.',
  startDate: '2022-02-01',
  creditingPeriodStartDate: '2022-03-01',
  estimatedAnnualMitigations: '1200\n\n1300',
  countryCode: 'ke',
  sectorId: 'blue-carbon',
  sectorTitle: 'Blue carbon',
  methodologyId: 'vm0033',
  methodologyTitle: 'Tidal wetland restoration',
  typeId: 'removal',
  typeTitle: 'Removal',
  lat: '-2.27',
  lng: '40.9',
  validatorIds: ['org-v'],
  documentation: [{ ...emptyDocument(), name: 'Design', type: 'projectDesign', uri: 'https://example.org/pdd.pdf' }],
  kmlFile: { name: 'Area', type: 'kml', uri: 'https://example.org/a.kml', isPublic: false },
  otherBenefits: [{ id: '3', title: 'Biodiversity', checked: true, description: '' }],
};

describe('project form', () => {
  it('makes a draft body of every field filled, leaving empty optional fields out', () => {
    const result = createBody(filled);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.body).toMatchObject({
      status: 'draft',
      countryCode: 'KE',
      estimatedAnnualMitigations: ['1200', null, '1300'],
      location: { lat: -2.27, lng: 40.9 },
      organizationId: 'org-a',
      validatorIds: ['org-v'],
      kmlFile: { name: 'Area', isPublic: false },
      otherBenefits: [{ id: 3, title: 'Biodiversity', checked: true }],
    });
    expect(result.body).not.toHaveProperty('city');
  });

  it('names what the registry would refuse', () => {
    const result = createBody({ ...filled, fullName: ' ', lat: '95', countryCode: 'XX' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.join('\n')).toMatch(/Project name: must not be empty/);
    expect(result.errors.join('\n')).toMatch(/Latitude: /);
    expect(result.errors.join('\n')).toMatch(/Country: unknown country code/);
  });

  it('round-trips a project read and sends only the changed fields of an edit', () => {
    const project: Project = {
      ...draftProject,
      estimatedAnnualMitigations: ['1200', null],
      documentation: [{ id: DOC_ID, uri: 'https://example.org/x.pdf', type: 'pdd', name: 'X', isPublic: true }],
    };
    const original = formFromProject(project);
    expect(updateBody(original, original)).toEqual({ ok: 'unchanged' });
    const edited: ProjectForm = { ...original, city: '', lat: '', lng: '', fullName: 'Lamu Mangroves', proponentIds: ['org-b'] };
    const result = updateBody(edited, original);
    expect(result).toEqual({
      ok: true,
      body: { fullName: 'Lamu Mangroves', city: null, location: null, organizationId: 'org-a', proponentIds: ['org-b'] },
    });
    // a kept document keeps its id
    const doc = updateBody({ ...original, documentation: [...original.documentation, emptyDocument()] }, original);
    expect(doc.ok).toBe(false);
    const named = updateBody(
      { ...original, documentation: [...original.documentation, { ...emptyDocument(), name: 'Y', type: 'kml', uri: 'u' }] },
      original,
    );
    expect(named.ok === true && named.body.documentation?.map((d) => d.id)).toEqual([DOC_ID, undefined]);
  });

  it('names a classification left empty by its field, not as "Number" and "Title"', () => {
    const result = createBody({ ...filled, sectorId: '', sectorTitle: '' });
    expect(result).toEqual({ ok: false, errors: ['Sector: must not be empty'] });
  });

  it('reads coordinates and estimates typed in the locale, and refuses the other decimal mark in words', () => {
    expect(readCoordinate('48,1', 90, 'de-DE')).toEqual({ ok: true, value: 48.1 });
    expect(readCoordinate('-11,5', 180, 'de-DE')).toEqual({ ok: true, value: -11.5 });
    expect(readCoordinate('48.1', 90, 'de-DE')).toEqual({ ok: false, message: 'write a number from -90 to 90, for example 48,1.' });
    expect(readCoordinate('95', 90, 'en-US')).toEqual({ ok: false, message: 'write a number from -90 to 90, for example 48.1.' });
    expect(readMitigation('1.200,5', 'de-DE')).toEqual({ ok: true, value: '1200.5' });
    expect(readMitigation('1,200.50', 'en-US')).toEqual({ ok: true, value: '1200.5' });
    expect(readMitigation('1200,5', 'en-US').ok).toBe(false);
    // what the registry sent, shown in the locale (and read back to the same value)
    expect(localeNumberText('1200.5', 'de-DE')).toBe('1.200,5');
    expect(localeNumberText(-2.27, 'de-DE')).toBe('-2,27');
  });

  it('says which line of the estimates it cannot read, beside the other problems', () => {
    const result = createBody({ ...filled, fullName: ' ', estimatedAnnualMitigations: '1200\n12 t' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors[0]).toMatch(/^Estimated annual mitigations, line 2: /);
    expect(result.errors.join('\n')).toMatch(/Project name: must not be empty/);
    expect(result.errors.filter((line) => line.startsWith('Estimated annual mitigations'))).toHaveLength(1);
  });
});
