// Random strings and numbers in every query and path parameter of every read endpoint built here:
// the registry must never answer 500, and every answer must be a JSON body that parses, as the
// endpoint's strict response on 200 and as the error body of compatibility.md otherwise.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints, type EndpointId } from '../../shared/registry/endpoints';
import { strict } from '../../shared/registry/resources';
import { appToken, createTestApp, startTestRegistry, type TestRegistry } from '../support/registry';
import { buildReadScenario, WALLET, type ReadScenario } from './read-scenario';

let t: TestRegistry;
let s: ReadScenario;
let examinerToken: string;

beforeAll(async () => {
  t = await startTestRegistry({ setup: (r) => void (s = buildReadScenario(r)) });
  // an examiner reaches every endpoint, so the random input gets past the permission check
  examinerToken = await appToken(t, createTestApp(t.registry, { examinerRead: true }));
});
afterAll(() => t.close());

/** Values that are hard on parsers: text, whole and fractional numbers, edge literals, real ids. */
function nastyValue(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.integer({ min: -1e6, max: 1e6 }).map(String),
    fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
    fc.double().map(String),
    fc.constantFrom(
      '',
      ' ',
      '0',
      '-0',
      '00',
      '1e309',
      'NaN',
      'Infinity',
      '0x',
      '%',
      '%00',
      "' OR 1=1 --",
      '..',
      '[]',
      '{}',
      'null',
      '9007199254740993',
    ),
    fc.constantFrom(s.projectId, s.orgA, s.orgC, s.creditId, s.serialization, s.claimed2023.id, WALLET),
    fc
      .constantFrom(s.projectId, s.creditId, s.serialization, WALLET)
      .chain((id) => fc.nat({ max: id.length }).map((cut) => id.slice(0, cut) + id.slice(cut + 1))),
  );
}

interface Target {
  id: EndpointId;
  path: string;
  pathParams: string[];
  queryParams: string[];
}

const targets: Target[] = [
  { id: 'listProjects', path: '/projects', pathParams: [], queryParams: ['limit', 'page'] },
  { id: 'listInternalProjects', path: '/projects/internal', pathParams: [], queryParams: ['limit', 'page'] },
  { id: 'getInternalProject', path: '/projects/internal/{projectId}', pathParams: ['projectId'], queryParams: [] },
  { id: 'findProject', path: '/projects/find/project', pathParams: [], queryParams: ['serialization', 'creditId'] },
  { id: 'getProject', path: '/projects/{id}', pathParams: ['id'], queryParams: [] },
  { id: 'listRetirementsV1', path: '/v1/retirements', pathParams: [], queryParams: ['limit', 'page'] },
  { id: 'getRetirementV1', path: '/v1/retirements/{id}', pathParams: ['id'], queryParams: [] },
  { id: 'listEntityRetirementsV1', path: '/v1/{id}/retirements', pathParams: ['id'], queryParams: [] },
  { id: 'listRetirements', path: '/retirements/list', pathParams: [], queryParams: ['skip', 'first'] },
  { id: 'getRetirement', path: '/retirements', pathParams: [], queryParams: ['id'] },
  { id: 'getProjectCredits', path: '/carbonCredits/projects/{id}', pathParams: ['id'], queryParams: [] },
  { id: 'getBufferInventory', path: '/carbonCredits/icr/inventory/buffer', pathParams: [], queryParams: [] },
  { id: 'getAdjustmentInventory', path: '/carbonCredits/icr/inventory/adjustment', pathParams: [], queryParams: [] },
  { id: 'getOrganizationInventory', path: '/carbonCredits/icr/inventory/organization', pathParams: [], queryParams: [] },
  { id: 'getOrganizationV1', path: '/v1/organizations/{id}', pathParams: ['id'], queryParams: [] },
];

const RUNS_PER_ENDPOINT = 20; // 15 endpoints: 300 requests in all

describe('fuzzing every read endpoint', () => {
  it('covers every endpoint of this part of the table', () => {
    for (const target of targets) expect(endpoints[target.id].path).toBe(target.path);
  });

  it.each(targets)('$id never answers 500 and always answers a parseable body', async (target) => {
    const input = fc.record({
      path: fc.tuple(...target.pathParams.map(() => nastyValue())),
      // each known parameter present or absent, plus a random unknown one
      query: fc.tuple(...target.queryParams.map(() => fc.option(nastyValue(), { nil: undefined }))),
      extra: fc.option(fc.tuple(fc.string({ minLength: 1, maxLength: 10 }), nastyValue()), { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(input, async ({ path, query, extra }) => {
        const filled = target.pathParams.reduce((p, name, i) => p.replace(`{${name}}`, encodeURIComponent(path[i]!)), target.path);
        const search = new URLSearchParams();
        target.queryParams.forEach((name, i) => query[i] !== undefined && search.append(name, query[i]));
        if (extra) search.append(extra[0], extra[1]);
        const url = search.size > 0 ? `${filled}?${search}` : filled;
        const res = await t.call(url, { token: examinerToken });
        const text = await res.text();
        expect(res.status, `${url} -> ${text}`).not.toBe(500);
        const body: unknown = JSON.parse(text);
        if (res.status === 200) {
          endpoints[target.id].response(strict).parse(body);
        } else {
          expect(strict.errorBody.parse(body).statusCode).toBe(res.status);
        }
      }),
      { numRuns: RUNS_PER_ENDPOINT },
    );
  });
});
