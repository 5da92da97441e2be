import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strict } from '@shared/registry/resources';
import { appToken, createTestApp, startTestRegistry, type TestRegistry } from '@test/support/registry';
import { buildFixture, type Fixture } from '@test/support/fixture';

let t: TestRegistry;
let token: string;
let f: Fixture;

beforeAll(async () => {
  t = await startTestRegistry({ setup: (r) => void (f = buildFixture(r)) });
  token = await appToken(t, createTestApp(t.registry));
});
afterAll(() => t.close());

async function expectError(res: Response, status: number) {
  expect(res.status).toBe(status);
  const body = strict.errorBody.parse(await res.json());
  expect(body.statusCode).toBe(status);
  return body;
}

describe('the HTTP pipeline every endpoint shares', () => {
  it('answers unknown routes with a JSON 404', async () => {
    const body = await expectError(await t.call('/nope', { token }), 404);
    expect(body.error).toBe('Not Found');
  });

  it('answers a known path with the wrong method with a JSON 405 and Allow', async () => {
    const res = await t.call('/projects', { method: 'DELETE', token });
    await expectError(res, 405);
    expect(res.headers.get('allow')).toContain('GET');
  });

  it('refuses an unsupported version header and accepts the supported one in any header case', async () => {
    await expectError(await t.call('/projects', { token, headers: { 'X-Reg-Api-Version': '2099-01-01' } }), 400);
    const res = await t.call('/openapi.json', { headers: { 'X-REG-API-VERSION': '2023-06-16' } });
    expect(res.status).toBe(200);
  });

  it('refuses requests without credentials with 401', async () => {
    await expectError(await t.call('/carbonCredits/icr/inventory/buffer'), 401);
  });

  // compatibility.md: path ids are taken exactly as sent, never trimmed
  it('takes a path id exactly as sent: whitespace around an id names no resource', async () => {
    expect((await t.call(`/projects/${f.projectId}`, { token })).status).toBe(200);
    for (const path of [
      `/projects/%20${f.projectId}`,
      `/projects/${f.projectId}%20`,
      `/v1/organizations/${f.orgA}%09`,
      `/carbonCredits/projects/%0A${f.projectId}`,
      '/projects/%20',
      '/v1/retirements/%20%20',
    ]) {
      const body = await expectError(await t.call(path, { token }), 404);
      expect(body.message, path).not.toMatch(/empty/);
    }
  });

  it('answers CORS preflights and exposes Content-Disposition', async () => {
    const res = await fetch(`${t.url}/retirements/x/pdf`, {
      method: 'OPTIONS',
      headers: { origin: 'https://example.org', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    expect(res.status).toBeLessThan(300);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const get = await t.call('/nope', { token, headers: { origin: 'https://example.org' } });
    expect(get.headers.get('access-control-expose-headers')).toMatch(/Content-Disposition/i);
  });

  it('serves an OpenAPI 3.1 document with every path of the contract', async () => {
    const doc = (await (await t.call('/openapi.json')).json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toBe('3.1.0');
    // finish is listed once per action: transfer_retire's body requires retirementData
    expect(Object.keys(doc.paths)).toContain('/organizations/{id}/warehouse/inventory/reservations/{reservationId}/transfer');
    expect(Object.keys(doc.paths)).toContain('/organizations/{id}/warehouse/inventory/reservations/{reservationId}/transfer_retire');
    const paths = Object.keys(doc.paths);
    // the contract's paths, and beyond it the changes feed, the health endpoints and the transparency log
    const beyond = ['/operator/v1/', '/sync/v1/', '/transparency/v1/'];
    expect(paths.filter((p) => !beyond.some((prefix) => p.startsWith(prefix)))).toHaveLength(27 + 2);
    expect(paths).toEqual(expect.arrayContaining(['/healthz', '/readyz']));
    expect(paths).toContain('/sync/v1/changes');
    expect(paths.filter((p) => p.startsWith('/transparency/v1/'))).toHaveLength(6);
    expect((doc.paths['/transparency/v1/checkpoint'] as Record<string, Record<string, unknown>>).get!.security).toEqual([]);
    // the operator interface: its writes name their role, audit action and the Idempotency-Key header
    expect(paths.filter((p) => p.startsWith('/operator/v1/')).length).toBeGreaterThanOrEqual(18);
    const issue = (doc.paths['/operator/v1/issuances'] as Record<string, Record<string, unknown>>).post!;
    expect(issue).toMatchObject({ 'x-required-role': 'manager', 'x-audit-action': 'credits.issue', security: [{ operatorToken: [] }] });
    expect(issue.responses).toHaveProperty('201');
    expect(JSON.stringify(issue.parameters)).toContain('Idempotency-Key');
  });
});
