// GET /openapi.json against a real OpenAPI validator, and against the server itself: for every
// operation the document lists, a request built from the document's own examples is accepted, and
// a request breaking any one constraint the document states is refused. Everything is read from the
// document (parameters, bodies, their keywords and examples), so a constraint the server enforces
// but the document does not state, or the reverse, fails here.
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as ops from '@registry/operations';
import { endpointIds } from '@shared/registry/endpoints';
import { buildFixture, type Fixture } from '@test/support/fixture';
import { createTestOperator, operatorToken, type TestOperator } from '@test/support/operators';
import { appToken, createTestApp, installationToken, startTestRegistry, type TestApp, type TestRegistry } from '@test/support/registry';

type Schema = Record<string, unknown> & {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  examples?: unknown[];
  anyOf?: { required: string[] }[];
};
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  style?: string;
  explode?: boolean;
  schema: Schema;
}
interface Operation {
  operationId: string;
  parameters: Parameter[];
  requestBody?: { required: boolean; content: { 'application/json': { schema: Schema } } };
  security: Record<string, string[]>[];
  'x-required-permission'?: string;
  'x-organization-parameter'?: string;
}
interface Document {
  openapi: string;
  info: { license?: { name: string } };
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
}

let t: TestRegistry;
let f: Fixture;
let doc: Document;
let app: TestApp;
let examiner: TestApp;
let installation: string;
let administrator: TestOperator;

beforeAll(async () => {
  // this suite is refused hundreds of times on purpose: a refusal budget that does not get in its way
  t = await startTestRegistry({ setup: (r) => void (f = buildFixture(r)), refusedAttempts: { requests: 1_000_000, windowMs: 60_000 } });
  app = createTestApp(t.registry, { name: 'Contract app' });
  examiner = createTestApp(t.registry, { name: 'Contract examiner', examinerRead: true, keyIndex: 1 });
  installation = ops.installApp(t.registry, {
    appId: app.id,
    organizationId: f.orgA,
    permissions: { organization_info: 'VIEW', organization_warehouse: 'WRITE' },
  }).id;
  administrator = createTestOperator(t.registry, 'administrator', 2);
  doc = (await (await t.call('/openapi.json')).json()) as Document;
});
afterAll(() => t.close());

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })));

// ---- requests built from the document -------------------------------------------------------------

interface Request {
  path: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** undefined: no body sent */
  body: unknown;
}

const exampleOf = (schema: Schema): unknown => schema.examples?.[0];

function exampleRequest(op: Operation): Request {
  const request: Request = { path: {}, query: {}, headers: {}, body: undefined };
  for (const p of op.parameters) {
    if (p.in === 'query' && p.style === 'form' && p.explode && p.schema.type === 'object') {
      // a form-exploded object: each property is its own query parameter
      for (const [name, value] of Object.entries(objectExample(p.schema))) request.query[name] = String(value);
      continue;
    }
    const example = exampleOf(p.schema) ?? (p.schema.enum as unknown[] | undefined)?.[0] ?? p.schema.default;
    if (example === undefined) {
      expect(p.required, `${op.operationId}: required parameter ${p.name} has no example`).toBe(false);
      continue;
    }
    (p.in === 'path' ? request.path : p.in === 'query' ? request.query : request.headers)[p.name] =
      typeof example === 'string' ? example : JSON.stringify(example);
  }
  if (op.requestBody) {
    const schema = op.requestBody.content['application/json'].schema;
    request.body = schema.type === 'object' ? objectExample(schema) : {};
  }
  return request;
}

/** The object's own example, else one built from its properties' examples. */
function objectExample(schema: Schema): Record<string, unknown> {
  const own = exampleOf(schema);
  if (own !== undefined) return structuredClone(own) as Record<string, unknown>;
  const built: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const example = property.type === 'object' ? objectExample(property) : exampleOf(property);
    if (example !== undefined) built[name] = example;
  }
  return built;
}

async function credentialsFor(op: Operation): Promise<string> {
  if (op.security.some((s) => 'appJwt' in s)) return app.jwt();
  // the operator interface: an administrator meets every role
  if (op.security.some((s) => 'operatorJwt' in s)) return administrator.jwt();
  if (op.security.some((s) => 'operatorToken' in s)) return operatorToken(t, administrator);
  const permission = op['x-required-permission'];
  if (permission?.startsWith('organization_')) return installationToken(t, app, installation);
  if (permission === 'examiner:read') return appToken(t, examiner);
  // a fresh token each time: DELETE /app/installations/token revokes the one it is sent with
  return appToken(t, app);
}

async function send(pathTemplate: string, method: string, op: Operation, request: Request): Promise<{ status: number; text: string }> {
  const organizationParam = op['x-organization-parameter'];
  const pathValues = { ...request.path };
  // An installation token acts only for its own organization (403 for another, before validation).
  if (organizationParam && pathValues[organizationParam] !== undefined && !brokenParams.has(request))
    pathValues[organizationParam] = f.orgA;
  const path = pathTemplate.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(pathValues[name] ?? ''));
  const query = new URLSearchParams(request.query).toString();
  const res = await t.call(`${path}${query ? `?${query}` : ''}`, {
    method: method.toUpperCase(),
    token: await credentialsFor(op),
    headers: request.headers,
    ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
  });
  return { status: res.status, text: await res.text() };
}
/** Requests that break the organization parameter itself: sent as they are. */
const brokenParams = new WeakSet<Request>();

// ---- breaking each constraint ---------------------------------------------------------------------

interface Breach {
  what: string;
  apply(request: Request): void;
  /** The statuses that count as refusing it. */
  refusedWith: number[];
}

/** Values that break one keyword of a schema (undefined: the keyword cannot be broken by a value). */
function breakingValues(schema: Schema, onWire: 'json' | 'text'): { keyword: string; value: unknown }[] {
  const out: { keyword: string; value: unknown }[] = [];
  const text = (v: unknown) => (onWire === 'text' ? String(v) : v);
  switch (schema.type) {
    case 'integer':
      out.push({ keyword: 'type integer', value: text(1.5) });
      break;
    case 'number':
      out.push({ keyword: 'type number', value: 'abc' });
      break;
    case 'string':
      if (onWire === 'json') out.push({ keyword: 'type string', value: 12345 });
      break;
    case 'object':
      out.push({ keyword: 'type object', value: 'not an object' });
      break;
    default:
      break;
  }
  const big = (n: number) => (Number.isSafeInteger(n) ? (BigInt(n) + 1n).toString() : String(n * 2));
  if (typeof schema.minimum === 'number') out.push({ keyword: 'minimum', value: text(schema.minimum - 1) });
  if (typeof schema.maximum === 'number')
    out.push({ keyword: 'maximum', value: onWire === 'text' ? big(schema.maximum) : schema.maximum + 1 });
  if (typeof schema.exclusiveMinimum === 'number') out.push({ keyword: 'exclusiveMinimum', value: text(schema.exclusiveMinimum) });
  if (typeof schema.multipleOf === 'number') out.push({ keyword: 'multipleOf', value: text(1 + schema.multipleOf / 10) });
  if (typeof schema.minLength === 'number' && schema.minLength > 0)
    out.push({ keyword: 'minLength', value: 'x'.repeat(schema.minLength - 1) });
  if (typeof schema.maxLength === 'number') out.push({ keyword: 'maxLength', value: 'x'.repeat(schema.maxLength + 1) });
  if (typeof schema.pattern === 'string') {
    const pattern = new RegExp(schema.pattern, 'u');
    const value = ['~', ' ', 'zz', '0x', '1.5'].find((candidate) => !pattern.test(candidate));
    expect(value, `no value breaks pattern ${schema.pattern}`).toBeDefined();
    out.push({ keyword: `pattern ${schema.pattern}`, value });
  }
  if (Array.isArray(schema.enum)) out.push({ keyword: 'enum', value: 'not-one-of-them' });
  return out;
}

/** Every single-constraint breach of one body object, at `at` (a path into the body). */
function bodyBreaches(schema: Schema, at: string[]): Breach[] {
  const breaches: Breach[] = [];
  const setAt = (body: unknown, path: string[], change: (parent: Record<string, unknown>, key: string) => void) => {
    let node = body as Record<string, unknown>;
    for (const key of path.slice(0, -1)) {
      node[key] ??= {};
      node = node[key] as Record<string, unknown>;
    }
    change(node, path[path.length - 1]!);
  };
  for (const name of schema.required ?? []) {
    breaches.push({
      what: `body.${[...at, name].join('.')} missing (required)`,
      apply: (r) => setAt(r.body, [...at, name], (parent, key) => delete parent[key]),
      refusedWith: [400],
    });
  }
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const path = [...at, name];
    for (const { keyword, value } of breakingValues(property, 'json')) {
      breaches.push({
        what: `body.${path.join('.')} breaking ${keyword} with ${JSON.stringify(value).slice(0, 40)}`,
        apply: (r) =>
          setAt(r.body, path, (parent, key) => {
            parent[key] = value;
          }),
        refusedWith: [400],
      });
    }
    if (property.type === 'object') {
      // an optional object absent from the example is filled in first, so its own fields can be broken
      const filled = objectExample(property);
      for (const breach of bodyBreaches(property, path)) {
        breaches.push({
          ...breach,
          apply: (r) => {
            setAt(r.body, path, (parent, key) => {
              parent[key] ??= structuredClone(filled);
            });
            breach.apply(r);
          },
        });
      }
    }
  }
  return breaches;
}

function breaches(op: Operation): Breach[] {
  const out: Breach[] = [];
  for (const p of op.parameters) {
    const bucket = (r: Request) => (p.in === 'path' ? r.path : p.in === 'query' ? r.query : r.headers);
    if (p.in === 'query' && p.style === 'form' && p.explode && p.schema.type === 'object') {
      const names = Object.keys(p.schema.properties ?? {});
      if (p.schema.anyOf) {
        out.push({
          what: `query without any of ${p.schema.anyOf.map((a) => a.required.join('+')).join(' | ')}`,
          apply: (r) => names.forEach((n) => delete r.query[n]),
          refusedWith: [400],
        });
      }
      for (const [name, property] of Object.entries(p.schema.properties ?? {})) {
        for (const { keyword, value } of breakingValues(property, 'text')) {
          out.push({ what: `query ${name} breaking ${keyword}`, apply: (r) => void (r.query[name] = String(value)), refusedWith: [400] });
        }
      }
      continue;
    }
    const isOrganization = p.in === 'path' && p.name === op['x-organization-parameter'];
    for (const { keyword, value } of breakingValues(p.schema, 'text')) {
      // an empty path segment is another URL (no route): not something a request can carry
      if (p.in === 'path' && value === '') continue;
      out.push({
        what: `${p.in} ${p.name} breaking ${keyword} with ${JSON.stringify(value).slice(0, 40)}`,
        apply: (r) => {
          bucket(r)[p.name] = String(value);
          if (isOrganization) brokenParams.add(r);
        },
        // for the organization parameter, the permission check answers first (docs/api.md, order of checks)
        refusedWith: isOrganization ? [400, 403] : [400],
      });
    }
    if (p.required && p.in === 'query') {
      out.push({ what: `query ${p.name} missing (required)`, apply: (r) => delete r.query[p.name], refusedWith: [400] });
    }
  }
  if (op.requestBody) out.push(...bodyBreaches(op.requestBody.content['application/json'].schema, []));
  return out;
}

// ---- the tests --------------------------------------------------------------------------------------

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.1 document with servers and a license', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc) as unknown as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 1)?.slice(0, 2000)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(doc.servers?.length).toBeGreaterThan(0);
    expect(doc.info.license?.name).toBeTruthy();
  });

  it('states the constraints the issue names', () => {
    const params = (path: string) => doc.paths[path]!.get!.parameters;
    const query = (path: string, name: string) => params(path).find((p) => p.name === name)!.schema;
    expect(query('/projects', 'page')).toMatchObject({ type: 'integer', minimum: 0 });
    expect(query('/projects', 'limit')).toMatchObject({ type: 'integer', minimum: 1, maximum: expect.any(Number) });
    expect(query('/retirements/list', 'skip')).toMatchObject({ type: 'integer', minimum: 0 });
    expect(query('/retirements/list', 'first')).toMatchObject({ type: 'integer', minimum: 1 });
    const reserve =
      doc.paths['/organizations/{id}/warehouse/inventory/reservations']!.post!.requestBody!.content['application/json'].schema;
    expect(reserve.properties!.amount).toMatchObject({ exclusiveMinimum: 0, multipleOf: 0.000001, maximum: expect.any(Number) });
    const finalize = doc.paths['/retirements/finalize']!.post!.requestBody!.content['application/json'].schema;
    expect(new RegExp(finalize.properties!.signature!.pattern as string).test('ab'.repeat(65))).toBe(true);
    expect(new RegExp(finalize.properties!.signature!.pattern as string).test(`0x${'ab'.repeat(65)}`)).toBe(true);
    expect(finalize.properties!.signedData!.properties!.beneficiary).toMatchObject({ minLength: 1 });
    expect(params('/projects/find/project')[0]!.schema.anyOf).toEqual([{ required: ['serialization'] }, { required: ['creditId'] }]);
    const finish = '/organizations/{id}/warehouse/inventory/reservations/{reservationId}';
    const retire = doc.paths[`${finish}/transfer_retire`]!.post!.requestBody!.content['application/json'].schema;
    expect(retire.required).toContain('retirementData');
    const transfer = doc.paths[`${finish}/transfer`]!.post!.requestBody!.content['application/json'].schema;
    expect(transfer.required).not.toContain('retirementData');
    // the operator's amounts say what the server enforces: grams, and the per-movement cap
    const issuance = doc.paths['/operator/v1/issuances']!.post!.requestBody!.content['application/json'].schema;
    expect(issuance.properties!.amount).toMatchObject({ exclusiveMinimum: 0, multipleOf: 0.000001, maximum: 1_000_000_000 });
    // issue 32, item 12: known countries, PEM keys, known permission keys, and no empty PATCH
    const body = (path: string, method: 'post' | 'patch') => doc.paths[path]![method]!.requestBody!.content['application/json'].schema;
    const country = body('/operator/v1/organizations', 'post').properties!.countryCode!;
    expect(country.enum).toContain('KE');
    expect(country.enum).not.toContain('XX');
    const pem = body('/operator/v1/apps', 'post').properties!.publicKeyPem!.pattern as string;
    expect(new RegExp(pem).test('-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----\n')).toBe(true);
    expect(new RegExp(pem).test('hello')).toBe(false);
    expect(body('/operator/v1/installations', 'post').properties!.permissions).toMatchObject({
      additionalProperties: false,
      properties: { organization_warehouse: { enum: ['VIEW', 'WRITE'] } },
    });
    expect(body('/operator/v1/organizations/{organizationId}', 'patch')).toMatchObject({ minProperties: 1 });
    expect(body('/operator/v1/projects/{projectId}', 'patch')).toMatchObject({ minProperties: 1 });
    // rules across fields, in words
    expect(body('/operator/v1/issuances', 'post').description).toMatch(/monitoringPeriodEnd must not be before monitoringPeriodStart/);
    expect(body('/operator/v1/transfers', 'post').description).toMatch(/from and to must be different accounts/);
  });

  it('lists every operation with an example request the server accepts', async () => {
    let count = 0;
    for (const { path, method, op } of operations()) {
      const { status, text } = await send(path, method, op, exampleRequest(op));
      expect(status, `${op.operationId} example: ${status} ${text.slice(0, 300)}`).not.toBe(400);
      expect(status, `${op.operationId} example: ${status} ${text.slice(0, 300)}`).toBeLessThan(500);
      expect([401, 403], `${op.operationId}: its credentials`).not.toContain(status);
      count += 1;
    }
    // every endpoint of the table, finish once per action, previews once per operation, the two health endpoints and the transparency log's six
    expect(count).toBe(endpointIds.length + 1 + 4 + 2 + 6);
  });

  it('is refused, for every operation, when a request breaks any one constraint the document states', async () => {
    let total = 0;
    for (const { path, method, op } of operations()) {
      for (const breach of breaches(op)) {
        const request = exampleRequest(op);
        breach.apply(request);
        const { status, text } = await send(path, method, op, request);
        expect(breach.refusedWith, `${op.operationId}: ${breach.what} answered ${status} ${text.slice(0, 200)}`).toContain(status);
        total += 1;
      }
    }
    expect(total).toBeGreaterThan(100);
    // one request per breach of every operation: several hundred, each a real round trip (41 s on a
    // machine at load 20)
  }, 120_000);
});
