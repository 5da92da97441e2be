// 4.2 / 4.3 reading retirements over real HTTP: order, redaction, the entity lists, lookups.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Retirement } from '@shared/registry/resources';
import { appToken, createTestApp, startTestRegistry, type TestRegistry } from '@test/support/registry';
import { buildReadScenario, getError, getOk, WALLET, type ReadScenario } from '@test/support/read-scenario';

let t: TestRegistry;
let s: ReadScenario;
let token: string;
let newestFirst: string[];

beforeAll(async () => {
  t = await startTestRegistry({ setup: (r) => void (s = buildReadScenario(r)) });
  token = await appToken(t, createTestApp(t.registry));
  // the scenario made them one second apart in this order
  newestFirst = [s.redacted.id, s.onchain.id, s.claimed2023.id, ...s.claimedSmall.map((r) => r.id).reverse()];
});
afterAll(() => t.close());

const isFull = (r: Retirement) => 'beneficiary' in r;

describe('GET /v1/retirements', () => {
  it('lists every retirement newest first with pagination', async () => {
    const body = await getOk(t, 'listRetirementsV1', '/v1/retirements?limit=100', token);
    expect(body.retirements.map((r) => r.id)).toEqual(newestFirst);
    expect(body.pagination).toEqual({ total: newestFirst.length, currentPage: 0, pageCount: 1, nextPage: null, prevPage: null });
  });

  it('shows claimed retirements in full and redacts unclaimed and unverified ones', async () => {
    const body = await getOk(t, 'listRetirementsV1', '/v1/retirements?limit=100', token);
    const byId = new Map(body.retirements.map((r) => [r.id, r]));
    const claimed = byId.get(s.claimed2023.id)!;
    expect(claimed).toMatchObject({
      isClaimed: true,
      beneficiary: 'Jane Doe',
      reason: 'Offsetting 2024 flights',
      comment: 'Thanks',
      organizationId: s.orgA,
      organizationOwner: { id: s.orgA, fullName: 'Alpha Forests Ltd' },
      amount: s.claimed2023.amount,
      vintage: '2023',
      project: { id: s.projectId },
    });
    for (const id of [s.onchain.id, s.redacted.id]) {
      const r = byId.get(id)!;
      expect(Object.keys(r).sort()).toEqual(['amount', 'createdAt', 'id', 'isClaimed', 'project']);
      expect(r.isClaimed).toBe(false);
    }
    expect(byId.get(s.onchain.id)!.amount).toBe(s.onchain.amount);
  });

  it('pages with limit and page', async () => {
    const page1 = await getOk(t, 'listRetirementsV1', '/v1/retirements?limit=2&page=1', token);
    expect(page1.retirements.map((r) => r.id)).toEqual(newestFirst.slice(2, 4));
    expect(page1.pagination).toMatchObject({ currentPage: 1, prevPage: 0, nextPage: 2, pageCount: Math.ceil(newestFirst.length / 2) });
  });
});

describe('GET /v1/retirements/{id} and GET /retirements?id=', () => {
  it('answers one retirement, wrapped in v1 and bare without version', async () => {
    const v1 = await getOk(t, 'getRetirementV1', `/v1/retirements/${s.claimed2023.id}`, token);
    const bare = await getOk(t, 'getRetirement', `/retirements?id=${s.claimed2023.id}`, token);
    expect(v1.retirement).toEqual(bare);
    expect(bare.id).toBe(s.claimed2023.id);
    const redacted = await getOk(t, 'getRetirement', `/retirements?id=${s.redacted.id}`, token);
    expect(isFull(redacted)).toBe(false);
  });

  it('is 404 for an unknown id and 400 without one', async () => {
    expect((await getError(t, '/v1/retirements/unknown-id', token, 404)).message).toContain('unknown-id');
    await getError(t, '/retirements?id=unknown-id', token, 404);
    await getError(t, '/retirements', token, 400);
    await getError(t, '/retirements?id=', token, 400);
  });
});

describe('GET /retirements/list', () => {
  it('skips and takes, newest first, and ignores unknown parameters', async () => {
    const body = await getOk(t, 'listRetirements', '/retirements/list?skip=1&first=3&offset=9', token);
    expect(body.retirements.map((r) => r.id)).toEqual(newestFirst.slice(1, 4));
    const all = await getOk(t, 'listRetirements', '/retirements/list', token);
    expect(all.retirements.map((r) => r.id)).toEqual(newestFirst.slice(0, 10));
    const past = await getOk(t, 'listRetirements', '/retirements/list?skip=1000', token);
    expect(past.retirements).toEqual([]);
  });

  it('rejects bad skip and first, listing every problem', async () => {
    const error = await getError(t, '/retirements/list?skip=-1&first=0', token, 400);
    expect(error.message).toEqual([expect.stringMatching(/^query\.skip/), expect.stringMatching(/^query\.first/)]);
  });
});

describe('GET /v1/{id}/retirements', () => {
  it("answers an organization's retirements", async () => {
    const body = await getOk(t, 'listEntityRetirementsV1', `/v1/${s.orgA}/retirements`, token);
    expect(body.retirements.map((r) => r.id)).toEqual([s.claimed2023.id, ...s.claimedSmall.map((r) => r.id).reverse()]);
    const c = await getOk(t, 'listEntityRetirementsV1', `/v1/${s.orgC}/retirements`, token);
    expect(c.retirements.map((r) => [r.id, isFull(r)])).toEqual([[s.redacted.id, false]]);
    const none = await getOk(t, 'listEntityRetirementsV1', `/v1/${s.orgB}/retirements`, token);
    expect(none.retirements).toEqual([]);
  });

  it("answers a project's retirements", async () => {
    const body = await getOk(t, 'listEntityRetirementsV1', `/v1/${s.projectId}/retirements`, token);
    expect(body.retirements.map((r) => r.id)).toEqual(newestFirst);
  });

  it("answers a wallet's retirements, whatever the case of the address", async () => {
    const body = await getOk(t, 'listEntityRetirementsV1', `/v1/${WALLET}/retirements`, token);
    expect(body.retirements.map((r) => r.id)).toEqual([s.onchain.id]);
    const upper = await getOk(t, 'listEntityRetirementsV1', `/v1/0x${WALLET.slice(2).toUpperCase()}/retirements`, token);
    expect(upper).toEqual(body);
    const unused = await getOk(t, 'listEntityRetirementsV1', '/v1/0x2222222222222222222222222222222222222222/retirements', token);
    expect(unused.retirements).toEqual([]);
  });

  it('is 404 for an id that is no organization, project or wallet', async () => {
    const error = await getError(t, '/v1/not-an-entity/retirements', token, 404);
    expect(error.message).toContain('not-an-entity');
  });
});
