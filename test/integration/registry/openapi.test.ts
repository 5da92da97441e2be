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
import { breaches, brokenParams, exampleRequest, type Document, type Operation, type Request } from '@test/support/openapi-requests';

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
