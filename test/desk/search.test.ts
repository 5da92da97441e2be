import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDeskCache, CacheInputError, toFtsPrefixQuery, type DeskCache } from '../../electron/core/desk/cache';
import { hashJson } from '../../electron/core/desk/cache/rows';
import type { Project, Retirement } from '../../shared/registry/resources';
import { makeDataDir } from '../support/registry';

const dir = makeDataDir('desk-search-');
let cache: DeskCache;

const project = (i: number, over: Partial<Project> = {}): Project => ({
  id: `p${i}`, num: String(i), fullName: `Project ${i}`, description: 'plain', shortDescription: 'short', publicUrl: '', registry: 'ICR', status: 'validated',
  startDate: `20${10 + (i % 10)}-01-01T00:00:00.000Z`, creditingPeriodStartDate: '2020-01-01T00:00:00.000Z', estimatedAnnualMitigations: [],
  countryCode: i % 3 === 0 ? 'KE' : 'BR', sector: { id: 'energy', title: 'Energy' }, otherBenefits: [],
  proponents: [{ id: 'o1', fullName: 'Alpha Forests Ltd', logo: '', publicUrl: '' }], validators: [],
  methodology: { id: i % 2 ? 'ar' : 're', title: i % 2 ? 'Afforestation' : 'Renewables' }, type: { id: 'removal', title: 'Removal', description: '' }, documentation: [], ...over,
});

function put(scope: 'public' | 'internal', projects: Project[]) {
  const resource = scope === 'public' ? 'projects' : 'internalProjects';
  cache.write.beginStaging(resource);
  cache.write.stage(resource, projects.map((p) => { const json = JSON.stringify(p); return { id: p.id, hash: hashJson(json), json }; }));
  cache.write.commitProjects(scope, { full: true, pageHashes: [] });
}

beforeAll(() => {
  cache = openDeskCache(join(dir.dir, 'cache.sqlite'));
  const list = Array.from({ length: 30 }, (_, i) => project(i + 1));
  list.push(project(100, { fullName: 'Kilimanjaro Reforestation', description: 'Trees on "the" mountain*', countryCode: 'TZ' }));
  list.push(project(101, { fullName: 'Kilifi Mangroves', status: 'registered' }));
  put('public', list);
  put('internal', [...list, project(200, { fullName: 'Secret Kiln Draft', status: 'draft' })]);
  const r = (i: number, claimed: boolean): Retirement =>
    claimed
      ? { id: `r${i}`, createdAt: `2024-01-${String(10 + i).padStart(2, '0')}T00:00:00.000Z`, isClaimed: true, reason: 'r', comment: '', beneficiary: i === 1 ? 'Jonas Müller' : `Buyer ${i}`, organizationId: 'o', organizationOwner: { id: 'o', fullName: 'Beta', logo: '', publicUrl: '' }, serialization: `ICR-KEN-1-${i}-1-S-1-2022`, vintage: '2022', amount: i, project: { id: 'p100', fullName: 'Kilimanjaro Reforestation', url: '', publicUrl: '', num: '100' } }
      : { id: `r${i}`, createdAt: `2024-01-${String(10 + i).padStart(2, '0')}T00:00:00.000Z`, isClaimed: false, amount: i, project: { id: 'p1', fullName: 'Project 1', url: '', publicUrl: '', num: '1' } };
  cache.write.beginStaging('retirements');
  cache.write.stage('retirements', [1, 2, 3, 4, 5].map((i) => { const json = JSON.stringify(r(i, i !== 5)); return { id: `r${i}`, hash: hashJson(json), json }; }));
  cache.write.commitRetirements({ full: true, pageHashes: [] });
});
afterAll(() => {
  cache.close();
  dir.remove();
});

describe('cache search', () => {
  it('turns user text into a safe prefix query', () => {
    expect(toFtsPrefixQuery('kili')).toBe('"kili"*');
    expect(toFtsPrefixQuery('ICR-KEN 20')).toBe('"ICR KEN"* "20"*');
    expect(toFtsPrefixQuery('" OR * NEAR( ^x:')).toBe('"OR"* "NEAR"* "x"*');
    expect(toFtsPrefixQuery(' "*" ')).toBeNull();
  });

  it('finds by prefix across name, number, country, methodology and proponents', () => {
    expect(cache.searchProjects({ query: 'kili' }).rows.map((r) => r.fullName)).toEqual(['Kilimanjaro Reforestation', 'Kilifi Mangroves']);
    expect(cache.searchProjects({ query: 'kilim' }).total).toBe(1);
    expect(cache.searchProjects({ query: 'tanz' }).rows.map((r) => r.id)).toEqual(['p100']); // country name
    expect(cache.searchProjects({ query: 'afforest' }).total).toBe(16);
    expect(cache.searchProjects({ query: 'alpha forests' }).total).toBe(32);
    expect(cache.searchProjects({ query: '101' }).rows.map((r) => r.id)).toEqual(['p101']);
  });

  it('treats quotes, asterisks and FTS operators in the query as plain text', () => {
    for (const q of ['"', '*', '"the" mountain*', 'kili"', 'NOT kili', 'name:kili', '(kili', 'kili OR', '^kili', "'; DROP TABLE projects; --"]) {
      expect(() => cache.searchProjects({ query: q }), q).not.toThrow();
    }
    expect(cache.searchProjects({ query: '"the" mountain*' }).rows.map((r) => r.id)).toEqual(['p100']);
    expect(cache.searchProjects({ query: '*' }).total).toBe(32); // nothing searchable: no text filter
    expect(cache.searchProjects({ query: 'NOT kili' }).total).toBe(0); // "NOT" is a word here, not an operator
  });

  it('filters, sorts and pages', () => {
    const kenya = cache.searchProjects({ filters: { countryCode: 'KE' }, sort: { field: 'num', direction: 'desc' }, limit: 3 });
    expect(kenya.total).toBe(10);
    expect(kenya.rows.map((r) => r.num)).toEqual(['30', '27', '24']);
    const page2 = cache.searchProjects({ filters: { countryCode: 'KE' }, sort: { field: 'num', direction: 'desc' }, limit: 3, offset: 3 });
    expect(page2.rows.map((r) => r.num)).toEqual(['21', '18', '15']);
    expect(cache.searchProjects({ sort: { field: 'name', direction: 'asc' }, limit: 2 }).rows.map((r) => r.fullName)).toEqual(['Kilifi Mangroves', 'Kilimanjaro Reforestation']);
    expect(cache.searchProjects({ filters: { status: 'registered' } }).rows.map((r) => r.id)).toEqual(['p101']);
    expect(cache.searchProjects({ query: 'kil', sort: { field: 'relevance', direction: 'asc' } }).total).toBe(2);
    const internal = cache.searchProjects({ scope: 'internal', query: 'kil' });
    expect(internal.rows.map((r) => [r.id, r.isPublic])).toEqual([['p100', true], ['p101', true], ['p200', false]]);
  });

  it('rejects input the desk API does not allow, with a clear error', () => {
    expect(() => cache.searchProjects({ limit: 10_000 })).toThrow(CacheInputError);
    expect(() => cache.searchProjects({ filters: { vintage: '22' } })).toThrow(/filters\.vintage/);
  });

  it('counts facets per scope', () => {
    const facets = cache.projectFacets('public');
    expect(facets.countries.find((c) => c.value === 'KE')).toEqual({ value: 'KE', label: 'Kenya', count: 10 });
    expect(facets.statuses).toEqual([{ value: 'validated', label: 'validated', count: 31 }, { value: 'registered', label: 'registered', count: 1 }]);
    expect(cache.projectFacets('internal').statuses.find((s) => s.value === 'draft')?.count).toBe(1);
  });

  it('searches retirements by beneficiary (diacritics folded), serialization and project, with filters and sorts', () => {
    expect(cache.searchRetirements({ query: 'muller' }).rows.map((r) => r.id)).toEqual(['r1']);
    expect(cache.searchRetirements({ query: 'ICR-KEN-1-3' }).rows.map((r) => r.id)).toEqual(['r3']);
    expect(cache.searchRetirements({ query: 'kilimanjaro' }).total).toBe(4);
    expect(cache.searchRetirements({}).rows.map((r) => r.id)).toEqual(['r5', 'r4', 'r3', 'r2', 'r1']);
    expect(cache.searchRetirements({ sort: { field: 'amount', direction: 'asc' }, limit: 2 }).rows.map((r) => r.amount)).toEqual([1, 2]);
    const unclaimed = cache.searchRetirements({ filters: { claimed: false } });
    expect(unclaimed.rows).toEqual([
      { id: 'r5', createdAt: '2024-01-15T00:00:00.000Z', isClaimed: false, amount: 5, beneficiary: null, reason: null, organizationName: null, projectId: 'p1', projectName: 'Project 1', projectNum: '1', serialization: null, vintage: null },
    ]);
    expect(cache.searchRetirements({ filters: { projectId: 'p100', vintage: '2022' } }).total).toBe(4);
    expect(cache.getRetirement('r1')?.retirement).toMatchObject({ beneficiary: 'Jonas Müller' });
  });
});
