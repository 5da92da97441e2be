// Page-based lists at their edges (compatibility.md, Pagination) on a registry with more projects
// and retirements than one page of the largest size, and the cap of the entity retirement list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdjustableClock } from '@platform/clock';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '@shared/registry/vocabulary';
import { ENTITY_RETIREMENTS_MAX } from '@registry/queries/retirements';
import * as ops from '@registry/operations';
import { appToken, createTestApp, startTestRegistry, type TestRegistry } from '@test/support/registry';
import { buildFixture, type Fixture } from '@test/support/fixture';
import { getError, getOk, type ReadResponses } from '@test/support/read-scenario';

const EXTRA_PROJECTS = MAX_PAGE_SIZE + 4;
const RETIREMENTS = ENTITY_RETIREMENTS_MAX + 3;

let t: TestRegistry;
let f: Fixture;
let token: string;
let publicTotal: number;

beforeAll(async () => {
  t = await startTestRegistry({
    setup: (r) => {
      f = buildFixture(r);
      r.db.transaction(() => {
        for (let i = 0; i < EXTRA_PROJECTS; i++) {
          ops.createProject(r, {
            fullName: `Paged project ${i}`,
            status: 'validated',
            organizationId: f.orgB,
            countryCode: 'DE',
            startDate: '2020-01-01',
            creditingPeriodStartDate: '2020-01-01',
            sector: { id: 'energy', title: 'Energy' },
            methodology: { id: 'm', title: 'M' },
            type: { id: 'avoidance', title: 'Avoidance' },
          });
        }
        // tiny retirements one millisecond apart: more than the entity list answers
        for (let i = 0; i < RETIREMENTS; i++) {
          ops.retireFromInventory(r, { organizationId: f.orgA, creditId: f.creditId, amount: 0.000001, beneficiary: 'B', reason: 'R' });
          (r.clock as AdjustableClock).advance(1);
        }
      });
    },
  });
  token = await appToken(t, createTestApp(t.registry));
  publicTotal = EXTRA_PROJECTS + 1; // the fixture's validated project is public too
});
afterAll(() => t.close());

describe('page-based lists', () => {
  it('default to page 0 and a limit of DEFAULT_PAGE_SIZE', async () => {
    const body = await getOk(t, 'listProjects', '/projects', token);
    expect(body.projects).toHaveLength(DEFAULT_PAGE_SIZE);
    expect(body.pagination).toEqual({
      total: publicTotal,
      currentPage: 0,
      pageCount: Math.ceil(publicTotal / DEFAULT_PAGE_SIZE),
      nextPage: 1,
      prevPage: null,
    });
  });

  it('walk every project exactly once, in order, ending on a short last page with nextPage null', async () => {
    const limit = 7;
    const seen: string[] = [];
    let page: number | null = 0;
    let last: ReadResponses['listProjects'] | undefined;
    while (page !== null) {
      last = await getOk(t, 'listProjects', `/projects?limit=${limit}&page=${page}`, token);
      expect(last.pagination.prevPage).toBe(page === 0 ? null : page - 1);
      seen.push(...last.projects.map((p) => p.num));
      page = last.pagination.nextPage;
    }
    expect(last!.pagination.currentPage).toBe(Math.ceil(publicTotal / limit) - 1);
    expect(last!.projects.length).toBe(publicTotal % limit || limit);
    expect(seen).toHaveLength(publicTotal);
    expect(new Set(seen).size).toBe(publicTotal);
    expect(seen.map(Number)).toEqual([...seen.map(Number)].sort((a, b) => a - b));
  });

  it('answer a page past the end with 200 and an empty list', async () => {
    const body = await getOk(t, 'listProjects', '/projects?limit=50&page=99', token);
    expect(body.projects).toEqual([]);
    expect(body.pagination).toEqual({
      total: publicTotal,
      currentPage: 99,
      pageCount: Math.ceil(publicTotal / 50),
      nextPage: null,
      prevPage: 98,
    });
    const huge = await getOk(t, 'listRetirementsV1', `/v1/retirements?page=${Number.MAX_SAFE_INTEGER}`, token);
    expect(huge.retirements).toEqual([]);
  });

  it('clamp a limit above the cap to MAX_PAGE_SIZE', async () => {
    const body = await getOk(t, 'listInternalProjects', '/projects/internal?limit=100000', await examinerToken());
    expect(body.projects).toHaveLength(MAX_PAGE_SIZE);
    expect(body.pagination.pageCount).toBe(Math.ceil(body.pagination.total / MAX_PAGE_SIZE));
    const retirements = await getOk(t, 'listRetirementsV1', '/v1/retirements?limit=5000', token);
    expect(retirements.retirements).toHaveLength(MAX_PAGE_SIZE);
    expect(retirements.pagination.total).toBe(RETIREMENTS);
  });

  it('ignore unknown parameters', async () => {
    const plain = await getOk(t, 'listProjects', '/projects?limit=5&page=1', token);
    const extra = await getOk(t, 'listProjects', '/projects?limit=5&page=1&offset=5&organizationId=x', token);
    expect(extra).toEqual(plain);
  });

  it.each(['0', '-1', 'abc', '1.5', '', '1e2'])('reject limit=%j with 400', async (limit) => {
    const error = await getError(t, `/projects?limit=${limit}`, token, 400);
    expect(String(error.message)).toMatch(/^query\.limit: /);
  });

  // compatibility.md: integers in query strings are digits only (`05`, ` 5`, `-0` are 400)
  it.each(['%205', '5%20', '05', '-0', '+5', '00', '5%0A'])('reject page=%s (and skip) with 400: digits only', async (value) => {
    const error = await getError(t, `/projects?page=${value}`, token, 400);
    expect(String(error.message)).toMatch(/^query\.page: /);
    const skip = await getError(t, `/retirements/list?skip=${value}`, token, 400);
    expect(String(skip.message)).toMatch(/^query\.skip: /);
  });

  it('accept 0 and plain digits', async () => {
    expect((await getOk(t, 'listProjects', '/projects?page=0&limit=10', token)).pagination.currentPage).toBe(0);
    expect((await getOk(t, 'listRetirements', '/retirements/list?skip=0&first=10', token)).retirements).toHaveLength(10);
  });

  it('list every problem at once', async () => {
    for (const path of ['/projects?limit=abc&page=-1', '/v1/retirements?limit=0&page=x']) {
      const error = await getError(t, path, token, 400);
      expect(error.message).toEqual([expect.stringMatching(/^query\.limit: /), expect.stringMatching(/^query\.page: /)]);
    }
  });
});

describe('GET /v1/{id}/retirements', () => {
  it(`answers only the newest ${ENTITY_RETIREMENTS_MAX}`, async () => {
    const body = await getOk(t, 'listEntityRetirementsV1', `/v1/${f.orgA}/retirements`, token);
    expect(body.retirements).toHaveLength(ENTITY_RETIREMENTS_MAX);
    const newest = await getOk(t, 'listRetirementsV1', '/v1/retirements?limit=100', token);
    expect(body.retirements.slice(0, 100)).toEqual(newest.retirements);
    const times = body.retirements.map((r) => Date.parse(r.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });
});

async function examinerToken() {
  return appToken(t, createTestApp(t.registry, { examinerRead: true }));
}
