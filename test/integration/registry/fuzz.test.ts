// Random strings and numbers in every query and path parameter of every read (GET) endpoint of the
// endpoint table: the registry must never answer 500, and every answer must parse: a JSON success
// as the endpoint's strict response (a PDF as a PDF), anything else as the error body of
// compatibility.md. The targets are read from the table, so a new endpoint is fuzzed as it lands.
// The operator interface too, signed in as an administrator (so input gets past the role check):
// every read the same way, and every write with random path parameters, Idempotency-Keys and
// bodies (random JSON, text that is not JSON, the endpoint's own example with a field changed).
import fc from 'fast-check';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints, type EndpointDefinition, type EndpointId } from '@shared/registry/endpoints';
import { strict } from '@shared/registry/resources';
import * as ops from '@registry/operations';
import { appToken, createTestApp, installationToken, startTestRegistry, type TestApp, type TestRegistry } from '@test/support/registry';
import { buildReadScenario, WALLET, type ReadScenario } from '@test/support/read-scenario';
import { createTestOperator, operatorToken } from '@test/support/operators';

let t: TestRegistry;
let s: ReadScenario;
let examiner: TestApp;
let examinerToken: string;
let warehouseToken: string;
let administratorToken: string;

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
  administratorToken = await operatorToken(t, createTestOperator(t.registry, 'administrator', 2));
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
  if (auth.kind === 'operator') return administratorToken;
  if (auth.kind !== 'accessToken') throw new Error('operator token requests are not fuzzed here');
  return auth.organizationParam ? warehouseToken : examinerToken;
}

/** The operator interface's endpoints (token requests aside), reads and writes. */
const operatorTargets: Target[] = (Object.entries(endpoints) as [EndpointId, EndpointDefinition][])
  .filter(([, endpoint]) => endpoint.auth.kind === 'operator')
  .map(([id, endpoint]) => ({
    id,
    endpoint,
    pathParams: [...endpoint.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!),
    queryParams: keysOf(endpoint.query),
  }));
const operatorReads = operatorTargets.filter((x) => x.endpoint.method === 'GET');
const operatorWrites = operatorTargets.filter((x) => x.endpoint.method !== 'GET');

/** A body for a write: its example with one field changed, dropped or added, any JSON, or text that is not JSON. */
function nastyBody(endpoint: EndpointDefinition): fc.Arbitrary<string> {
  const examples = ((endpoint.body ? z.globalRegistry.get(endpoint.body)?.examples : undefined) ?? []) as unknown[];
  const example = (examples[0] ?? {}) as Record<string, unknown>;
  const fields = Object.keys(example);
  const anyJson = fc.oneof(fc.jsonValue({ maxDepth: 2 }), nastyValue(), fc.integer(), fc.double());
  const changed = fc
    .record({
      field: fields.length > 0 ? fc.constantFrom(...fields) : fc.string({ maxLength: 8 }),
      value: fc.option(anyJson, { nil: undefined }),
    })
    .map(({ field, value }) => {
      const copy: Record<string, unknown> = { ...example };
      if (value === undefined) delete copy[field];
      else copy[field] = value;
      return JSON.stringify(copy);
    });
  return fc.oneof(
    changed,
    fc.constant(JSON.stringify(example)),
    fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
    fc.string({ unit: 'binary', maxLength: 60 }),
    fc.constantFrom('', '{', '{"amount":1e999}', '{"__proto__":{"x":1}}', '[]', 'null', '{"amount":"1"}'),
  );
}

/** Checks an answer: never a 5xx; a success parses as the endpoint's strict response, anything else as the error body. */
async function expectParsedAnswer(res: Response, endpoint: EndpointDefinition, what: string): Promise<void> {
  const text = await res.text();
  expect(res.status, `${what} -> ${text}`).toBeLessThan(500);
  const body: unknown = JSON.parse(text);
  if (res.status < 300) endpoint.response(strict).parse(body);
  else expect(strict.errorBody.parse(body).statusCode, `${what} -> ${text}`).toBe(res.status);
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

describe('fuzzing the operator interface, as an administrator', () => {
  it('reads its targets from the table: every operator read and write', () => {
    expect(operatorReads.length).toBeGreaterThanOrEqual(9);
    expect(operatorWrites.length).toBeGreaterThanOrEqual(15);
    expect(operatorWrites.map((x) => x.id)).toContain('operatorIssueCredits');
  });

  it.each(operatorReads)('$id never answers 5xx and always answers a parseable body', async (target) => {
    const input = fc.record({
      path: fc.tuple(...target.pathParams.map(() => nastyValue())),
      query: fc.tuple(...target.queryParams.map(() => fc.option(nastyValue(), { nil: undefined }))),
    });
    await fc.assert(
      fc.asyncProperty(input, async ({ path, query }) => {
        const filled = target.pathParams.reduce((p, name, i) => p.replace(`{${name}}`, encodeURIComponent(path[i]!)), target.endpoint.path);
        const search = new URLSearchParams();
        target.queryParams.forEach((name, i) => query[i] !== undefined && search.append(name, query[i]));
        const url = search.size > 0 ? `${filled}?${search}` : filled;
        await expectParsedAnswer(await t.call(url, { token: administratorToken }), target.endpoint, url);
      }),
      { numRuns: RUNS_PER_ENDPOINT },
    );
  });

  it.each(operatorWrites)('$id never answers 5xx to hostile bodies, parameters and keys', async (target) => {
    const input = fc.record({
      path: fc.tuple(...target.pathParams.map(() => nastyValue())),
      body: nastyBody(target.endpoint),
      key: fc.option(fc.string({ minLength: 0, maxLength: 210 }), { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(input, async ({ path, body, key }) => {
        const filled = target.pathParams.reduce((p, name, i) => p.replace(`{${name}}`, encodeURIComponent(path[i]!)), target.endpoint.path);
        const res = await t.call(filled, {
          method: target.endpoint.method,
          token: administratorToken,
          body,
          ...(key !== undefined ? { headers: { 'Idempotency-Key': key } } : {}),
        });
        await expectParsedAnswer(res, target.endpoint, `${target.endpoint.method} ${filled} ${body}`);
      }),
      { numRuns: RUNS_PER_ENDPOINT },
    );
  });
});
