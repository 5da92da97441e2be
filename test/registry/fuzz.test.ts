// Random strings and numbers in every query and path parameter of every read (GET) endpoint of the
// endpoint table: the registry must never answer 500, and every answer must parse: a JSON success
// as the endpoint's strict response (a PDF as a PDF), anything else as the error body of
// compatibility.md. The targets are read from the table, so a new endpoint is fuzzed as it lands.
import fc from 'fast-check';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints, type EndpointDefinition, type EndpointId } from '../../shared/registry/endpoints';
import { strict } from '../../shared/registry/resources';
import * as ops from '../../electron/core/registry/operations';
import { appToken, createTestApp, installationToken, startTestRegistry, type TestApp, type TestRegistry } from '../support/registry';
import { buildReadScenario, WALLET, type ReadScenario } from './read-scenario';

let t: TestRegistry;
let s: ReadScenario;
let examiner: TestApp;
let examinerToken: string;
let warehouseToken: string;

beforeAll(async () => {
  t = await startTestRegistry({ setup: (r) => void (s = buildReadScenario(r)) });
  // An examiner app reaches every endpoint that takes an app token or its JWT, and an installation
  // of it on organization A every warehouse endpoint (for A), so random input gets past the checks.
  examiner = createTestApp(t.registry, { examinerRead: true });
  examinerToken = await appToken(t, examiner);
  const installation = ops.installApp(t.registry, {
    appId: examiner.id,
    organizationId: s.orgA,
    permissions: { organization_warehouse: 'WRITE' },
  });
  warehouseToken = await installationToken(t, examiner, installation.id);
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
  endpoint: EndpointDefinition;
  pathParams: string[];
  queryParams: string[];
}

const keysOf = (schema: z.ZodType) => (schema instanceof z.ZodObject ? Object.keys(schema.shape) : []);

/** Every read endpoint of the seed interface in the table, with the parameters its path and query schema name. */
const targets: Target[] = (Object.entries(endpoints) as [EndpointId, EndpointDefinition][])
  .filter(([, endpoint]) => endpoint.method === 'GET' && (endpoint.auth.kind === 'appJwt' || endpoint.auth.kind === 'accessToken'))
  .map(([id, endpoint]) => ({
    id,
    endpoint,
    pathParams: [...endpoint.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!),
    queryParams: keysOf(endpoint.query),
  }));

/** The credential each kind of endpoint takes. */
async function credentialFor({ auth }: EndpointDefinition): Promise<string> {
  if (auth.kind === 'appJwt') return examiner.jwt();
  if (auth.kind !== 'accessToken') throw new Error('operator endpoints are not fuzzed here');
  return auth.organizationParam ? warehouseToken : examinerToken;
}

const RUNS_PER_ENDPOINT = 20;

describe('fuzzing every read endpoint', () => {
  it('reads its targets from the table: every GET endpoint, with the parameters its schemas name', () => {
    expect(targets.length).toBeGreaterThanOrEqual(21);
    expect(targets.find((x) => x.id === 'findProject')).toMatchObject({ pathParams: [], queryParams: ['serialization', 'creditId'] });
    expect(targets.find((x) => x.id === 'getReservation')?.pathParams).toEqual(['id', 'reservationId']);
    for (const target of targets) expect(target.pathParams.sort()).toEqual(keysOf(target.endpoint.params).sort());
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
        const filled = target.pathParams.reduce((p, name, i) => p.replace(`{${name}}`, encodeURIComponent(path[i]!)), target.endpoint.path);
        const search = new URLSearchParams();
        target.queryParams.forEach((name, i) => query[i] !== undefined && search.append(name, query[i]));
        if (extra) search.append(extra[0], extra[1]);
        const url = search.size > 0 ? `${filled}?${search}` : filled;
        const res = await t.call(url, { token: await credentialFor(target.endpoint) });
        expect(res.status, url).not.toBe(500);
        if (res.status === 200 && target.endpoint.responseType === 'pdf') {
          expect(res.headers.get('content-type')).toBe('application/pdf');
          expect(
            Buffer.from(await res.arrayBuffer())
              .subarray(0, 5)
              .toString('latin1'),
          ).toBe('%PDF-');
          return;
        }
        const text = await res.text();
        const body: unknown = JSON.parse(text);
        if (res.status === 200) {
          target.endpoint.response(strict).parse(body);
        } else {
          expect(strict.errorBody.parse(body).statusCode, `${url} -> ${text}`).toBe(res.status);
        }
      }),
      { numRuns: RUNS_PER_ENDPOINT },
    );
  });
});
