// A draft project as the registry's operator read gives it, for tests of the project form (its
// fields round-trip) and of the edit dialog. Type-only imports: it loads in Node and in the browser.
import type { Project } from '@shared/registry/resources';

export const draftProject: Project = {
  id: 'p1',
  num: '7',
  fullName: 'Mangroves of Lamu',
  description: 'Restores mangroves.',
  shortDescription: 'Mangroves',
  publicUrl: 'https://r.example/projects/p1',
  registry: 'R',
  status: 'draft',
  startDate: '2022-02-01T00:00:00.000Z',
  creditingPeriodStartDate: '2022-03-01T00:00:00.000Z',
  estimatedAnnualMitigations: ['1200'],
  countryCode: 'KE',
  city: 'Lamu',
  sector: { id: 'blue-carbon', title: 'Blue carbon' },
  otherBenefits: [],
  proponents: [{ id: 'org-a', fullName: 'A', logo: '', publicUrl: '' }],
  validators: [],
  methodology: { id: 'vm0033', title: 'T' },
  type: { id: 'removal', title: 'Removal', description: '' },
  location: { lat: 1, lng: 2 },
  documentation: [],
};
