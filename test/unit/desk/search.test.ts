import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDeskCache, CacheInputError, searchText, toFtsPrefixQuery, type DeskCache } from '@desk/cache';
import { walkSortIndex } from '@desk/cache/queries';
import { SEARCH_COUNT_LIMIT } from '@shared/desk/api';
import type { Project, Retirement } from '@shared/registry/resources';
import { makeDataDir } from '@test/support/registry';
import { manyRetirements, project, putProjects, putRetirements, smallRetirement } from '@test/support/search-caches';

const dir = makeDataDir('desk-search-');
let cache: DeskCache;
const put = (scope: 'public' | 'internal', projects: Project[]) => putProjects(cache, scope, projects);

beforeAll(() => {
  cache = openDeskCache(join(dir.dir, 'cache.sqlite'));
  const list = Array.from({ length: 30 }, (_, i) => project(i + 1));
  list.push(project(100, { fullName: 'Kilimanjaro Reforestation', description: 'Trees on "the" mountain*', countryCode: 'TZ' }));
  list.push(project(101, { fullName: 'Kilifi Mangroves', status: 'registered' }));
  put('public', list);
  put('internal', [...list, project(200, { fullName: 'Secret Kiln Draft', status: 'draft' })]);
  putRetirements(
    cache,
    [1, 2, 3, 4, 5].map((i) => smallRetirement(i, i !== 5)),
  );
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
    for (const q of [
      '"',
      '*',
      '"the" mountain*',
      'kili"',
      'NOT kili',
      'name:kili',
      '(kili',
      'kili OR',
      '^kili',
      "'; DROP TABLE projects; --",
    ]) {
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
    expect(cache.searchProjects({ sort: { field: 'name', direction: 'asc' }, limit: 2 }).rows.map((r) => r.fullName)).toEqual([
      'Kilifi Mangroves',
      'Kilimanjaro Reforestation',
    ]);
    expect(cache.searchProjects({ filters: { status: 'registered' } }).rows.map((r) => r.id)).toEqual(['p101']);
    expect(cache.searchProjects({ query: 'kil', sort: { field: 'relevance', direction: 'asc' } }).total).toBe(2);
    const internal = cache.searchProjects({ scope: 'internal', query: 'kil' });
    expect(internal.rows.map((r) => [r.id, r.isPublic])).toEqual([
      ['p100', true],
      ['p101', true],
      ['p200', false],
    ]);
  });

  it('rejects input the desk API does not allow, with a clear error', () => {
    expect(() => cache.searchProjects({ limit: 10_000 })).toThrow(CacheInputError);
    expect(() => cache.searchProjects({ filters: { vintage: '22' } })).toThrow(/filters\.vintage/);
  });

  it('counts facets per scope', () => {
    const facets = cache.projectFacets('public');
    expect(facets.countries.find((c) => c.value === 'KE')).toEqual({ value: 'KE', label: 'Kenya', count: 10 });
    expect(facets.statuses).toEqual([
      { value: 'validated', label: 'validated', count: 31 },
      { value: 'registered', label: 'registered', count: 1 },
    ]);
    expect(cache.projectFacets('internal').statuses.find((s) => s.value === 'draft')?.count).toBe(1);
  });

  it('matches a one-character query as the start of the project name', () => {
    expect(cache.searchProjects({ query: 'K' }).rows.map((r) => r.fullName)).toEqual(['Kilimanjaro Reforestation', 'Kilifi Mangroves']);
    expect(
      cache.searchProjects({ scope: 'internal', query: 's', sort: { field: 'relevance', direction: 'asc' } }).rows.map((r) => r.id),
    ).toEqual(['p200']);
  });

  it('keeps facets until the cache is written, then counts again', () => {
    const before = cache.projectFacets('internal');
    before.statuses.length = 0; // a caller changing its copy changes nothing kept
    expect(cache.projectFacets('internal').statuses.find((s) => s.value === 'draft')?.count).toBe(1);
    put('internal', [project(300, { status: 'draft' }), project(301, { status: 'draft' })]);
    expect(cache.projectFacets('internal').statuses.find((s) => s.value === 'draft')?.count).toBe(2);
    expect(cache.searchProjects({ scope: 'internal' }).total).toBe(2);
    put('internal', [
      ...Array.from({ length: 30 }, (_, i) => project(i + 1)),
      project(100, { fullName: 'Kilimanjaro Reforestation', description: 'Trees on "the" mountain*', countryCode: 'TZ' }),
      project(101, { fullName: 'Kilifi Mangroves', status: 'registered' }),
      project(200, { fullName: 'Secret Kiln Draft', status: 'draft' }),
    ]);
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
      {
        id: 'r5',
        createdAt: '2024-01-15T00:00:00.000Z',
        isClaimed: false,
        amount: 5,
        beneficiary: null,
        reason: null,
        organizationName: null,
        projectId: 'p1',
        projectName: 'Project 1',
        projectNum: '1',
        serialization: null,
        vintage: null,
      },
    ]);
    expect(cache.searchRetirements({ filters: { projectId: 'p100', vintage: '2022' } }).total).toBe(4);
    expect(cache.getRetirement('r1')?.retirement).toMatchObject({ beneficiary: 'Jonas Müller' });
  });
});

describe('cache search on a larger cache', () => {
  // 16,000 retirements: beyond the count limit, dense and sparse text, both paging strategies.
  const bigDir = makeDataDir('desk-search-big-');
  let big: DeskCache;
  const count = 16_000;
  const made: Retirement[] = [];
  beforeAll(() => {
    big = openDeskCache(join(bigDir.dir, 'cache.sqlite'));
    made.push(...manyRetirements(count));
    putRetirements(big, made);
  });
  afterAll(() => {
    big.close();
    bigDir.remove();
  });

  // The reference: the same filter and order computed here from the rows put in.
  const byCreatedDesc = (a: Retirement, b: Retirement) =>
    a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1;
  const byAmountDesc = (a: Retirement, b: Retirement) => (a.amount === b.amount ? byCreatedDesc(a, b) : b.amount - a.amount);

  it('pages dense and sparse matches, shallow and deep, exactly like a full sort of the matches', () => {
    const cases: { query: string; keep: (r: Retirement) => boolean }[] = [
      { query: 'common', keep: (r) => r.project.fullName.startsWith('Common') }, // dense: walks the sort index
      { query: 'rare wetland', keep: (r) => r.project.fullName === 'Rare Wetland' }, // sparse: fetched and sorted
    ];
    expect(walkSortIndex(made.filter(cases[0]!.keep).length, count, 150, 50)).toBe(true);
    expect(walkSortIndex(made.filter(cases[1]!.keep).length, count, 0, 50)).toBe(false);
    for (const { query, keep } of cases) {
      const expected = made.filter(keep);
      for (const [sort, compare] of [
        ['createdAt', byCreatedDesc],
        ['amount', byAmountDesc],
      ] as const) {
        const sorted = [...expected].sort(compare);
        for (const offset of [0, 150, 25]) {
          const got = big.searchRetirements({ query, sort: { field: sort, direction: 'desc' }, offset, limit: 50 });
          expect(
            got.rows.map((r) => r.id),
            `${query} ${sort} ${offset}`,
          ).toEqual(sorted.slice(offset, offset + 50).map((r) => r.id));
          expect(got.total).toBe(expected.length);
        }
      }
    }
    // Filters the sort index carries (claimed, vintage), on a deep page.
    const filtered = made.filter((r) => r.isClaimed && 'vintage' in r && r.vintage === '2020').sort(byAmountDesc);
    const page = big.searchRetirements({
      filters: { claimed: true, vintage: '2020' },
      sort: { field: 'amount', direction: 'desc' },
      offset: 300,
      limit: 100,
    });
    expect(page.rows.map((r) => r.id)).toEqual(filtered.slice(300, 400).map((r) => r.id));
    expect(page.total).toBe(filtered.length);
    expect(page.totalIsLowerBound).toBeUndefined();
  });

  it('counts exactly where cheap and reports a lower bound past the count limit', () => {
    expect(big.searchRetirements({}).total).toBe(count);
    expect(big.searchRetirements({ query: 'common' }).total).toBe(made.filter((r) => r.project.fullName.startsWith('Common')).length);
    const claimed = big.searchRetirements({ filters: { claimed: true } });
    expect(made.filter((r) => r.isClaimed).length).toBeGreaterThan(SEARCH_COUNT_LIMIT);
    expect(claimed.total).toBe(SEARCH_COUNT_LIMIT);
    expect(claimed.totalIsLowerBound).toBe(true);
    // Reading on past the bound still works.
    const past = big.searchRetirements({
      filters: { claimed: true },
      sort: { field: 'createdAt', direction: 'desc' },
      offset: SEARCH_COUNT_LIMIT - 10,
      limit: 100,
    });
    expect(past.rows.map((r) => r.id)).toEqual(
      made
        .filter((r) => r.isClaimed)
        .sort(byCreatedDesc)
        .slice(SEARCH_COUNT_LIMIT - 10, SEARCH_COUNT_LIMIT + 90)
        .map((r) => r.id),
    );
  });

  it('matches one character as the start of the beneficiary, not as a prefix of every word', () => {
    const expected = made.filter((r) => 'beneficiary' in r && r.beneficiary.toLowerCase().startsWith('z'));
    const got = big.searchRetirements({ query: 'Z', limit: 20 });
    expect(got.total).toBe(expected.length);
    expect(got.rows.map((r) => r.id)).toEqual(
      [...expected]
        .sort(byCreatedDesc)
        .slice(0, 20)
        .map((r) => r.id),
    );
    const byAmount = big.searchRetirements({ query: 'z', sort: { field: 'amount', direction: 'desc' }, offset: 40, limit: 20 });
    expect(byAmount.rows.map((r) => r.id)).toEqual(
      [...expected]
        .sort(byAmountDesc)
        .slice(40, 60)
        .map((r) => r.id),
    );
    expect(big.searchRetirements({ query: 'c' }).total).toBe(0); // "Common Forest" is a project, not a beneficiary
    // "ICR-5" holds the word "5": a two-character query is a prefix match again.
    expect(big.searchRetirements({ query: 'ICR-5' }).total).toBeGreaterThan(0);
  });
});

describe('search text', () => {
  it('treats one letter or digit as a name initial and longer text as an FTS prefix match', () => {
    expect(searchText(' k ')).toEqual({ kind: 'initial', range: { from: 'k', to: 'l' } });
    expect(searchText('K-')).toEqual({ kind: 'initial', range: { from: 'k', to: 'l' } });
    expect(searchText('ki')).toEqual({ kind: 'match', match: '"ki"*' });
    expect(searchText('"*')).toEqual({ kind: 'none' });
  });

  it('decides to walk the sort index only when matches are many for the page asked', () => {
    expect(walkSortIndex(60_000, 100_000, 0, 100)).toBe(true);
    expect(walkSortIndex(100, 100_000, 0, 100)).toBe(false);
    expect(walkSortIndex(1_000, 100_000, 50_000, 100)).toBe(false);
  });
});
