// The caches the desk's search tests read: projects made by number (names, countries and
// methodologies following from it), a few retirements with one German beneficiary, and many
// retirements (dense and sparse project names, a third unclaimed) for the paging strategies; each
// written as the sync writes it, staged and then committed.
import type { DeskCache } from '@desk/cache';
import { hashJson } from '@desk/cache/rows';
import type { Project, Retirement } from '@shared/registry/resources';

export const project = (i: number, over: Partial<Project> = {}): Project => ({
  id: `p${i}`,
  num: String(i),
  fullName: `Project ${i}`,
  description: 'plain',
  shortDescription: 'short',
  publicUrl: '',
  registry: 'ICR',
  status: 'validated',
  startDate: `20${10 + (i % 10)}-01-01T00:00:00.000Z`,
  creditingPeriodStartDate: '2020-01-01T00:00:00.000Z',
  estimatedAnnualMitigations: [],
  countryCode: i % 3 === 0 ? 'KE' : 'BR',
  sector: { id: 'energy', title: 'Energy' },
  otherBenefits: [],
  proponents: [{ id: 'o1', fullName: 'Alpha Forests Ltd', logo: '', publicUrl: '' }],
  validators: [],
  methodology: { id: i % 2 ? 'ar' : 're', title: i % 2 ? 'Afforestation' : 'Renewables' },
  type: { id: 'removal', title: 'Removal', description: '' },
  documentation: [],
  ...over,
});

/** Writes a scope's projects as the sync does: staged, then committed as a full answer. */
export function putProjects(cache: DeskCache, scope: 'public' | 'internal', projects: Project[]) {
  const resource = scope === 'public' ? 'projects' : 'internalProjects';
  cache.write.beginStaging(resource);
  cache.write.stage(
    resource,
    projects.map((p) => {
      const json = JSON.stringify(p);
      return { id: p.id, hash: hashJson(json), json };
    }),
  );
  cache.write.commitProjects(scope, { full: true, pageHashes: [] });
}

/** A small retirement numbered i: claimed ones on Kilimanjaro Reforestation, r1's beneficiary Jonas Müller. */
export const smallRetirement = (i: number, claimed: boolean): Retirement =>
  claimed
    ? {
        id: `r${i}`,
        createdAt: `2024-01-${String(10 + i).padStart(2, '0')}T00:00:00.000Z`,
        isClaimed: true,
        reason: 'r',
        comment: '',
        beneficiary: i === 1 ? 'Jonas Müller' : `Buyer ${i}`,
        organizationId: 'o',
        organizationOwner: { id: 'o', fullName: 'Beta', logo: '', publicUrl: '' },
        serialization: `ICR-KEN-1-${i}-1-S-1-2022`,
        vintage: '2022',
        amount: i,
        project: { id: 'p100', fullName: 'Kilimanjaro Reforestation', url: '', publicUrl: '', num: '100' },
      }
    : {
        id: `r${i}`,
        createdAt: `2024-01-${String(10 + i).padStart(2, '0')}T00:00:00.000Z`,
        isClaimed: false,
        amount: i,
        project: { id: 'p1', fullName: 'Project 1', url: '', publicUrl: '', num: '1' },
      };

/** Writes retirements as the sync does: staged, then committed as a full answer. */
export function putRetirements(cache: DeskCache, retirements: Retirement[]) {
  cache.write.beginStaging('retirements');
  cache.write.stage(
    'retirements',
    retirements.map((r) => {
      const json = JSON.stringify(r);
      return { id: r.id, hash: hashJson(json), json };
    }),
  );
  cache.write.commitRetirements({ full: true, pageHashes: [] });
}

/**
 * `count` retirements over 1,500 days: every 400th on the rare "Rare Wetland" project, the others on
 * forty "Common Forest" projects; a third unclaimed; beneficiaries Kim, Ana and Zoe.
 */
export function manyRetirements(count: number): Retirement[] {
  const made: Retirement[] = [];
  for (let i = 0; i < count; i++) {
    const day = new Date(Date.UTC(2020, 0, 1) + (i % 1500) * 86_400_000).toISOString();
    const claimed = i % 3 !== 0;
    const project =
      i % 400 === 7
        ? { id: 'p-rare', fullName: 'Rare Wetland', url: '', publicUrl: '', num: '400' }
        : { id: `p${i % 40}`, fullName: `Common Forest ${i % 40}`, url: '', publicUrl: '', num: String(i % 40) };
    made.push(
      claimed
        ? {
            id: `r${String(i).padStart(5, '0')}`,
            createdAt: day,
            isClaimed: true,
            reason: 'r',
            comment: '',
            beneficiary: `${['Kim', 'Ana', 'Zoe'][i % 3]} ${i}`,
            organizationId: 'o',
            organizationOwner: { id: 'o', fullName: 'Beta', logo: '', publicUrl: '' },
            serialization: `ICR-${i}`,
            vintage: String(2015 + (i % 10)),
            amount: (i * 7919) % 1000,
            project,
          }
        : { id: `r${String(i).padStart(5, '0')}`, createdAt: day, isClaimed: false, amount: (i * 7919) % 1000, project },
    );
  }
  return made;
}
