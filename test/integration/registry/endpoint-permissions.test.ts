// Walks the endpoint table: every endpoint refuses a request without credentials, refuses one
// whose grant is one step short of what the table requires, and accepts one with exactly its
// permission. New endpoints are covered the day they are added to the table. The operator endpoints
// (/operator/v1/...) are walked by operator-endpoints.test.ts with operator tokens and roles.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointIds, endpoints, fillPath, type EndpointDefinition, type EndpointId } from '@shared/registry/endpoints';
import type { RequiredPermission } from '@shared/registry/vocabulary';
import * as ops from '@registry/operations';
import { appToken, createTestApp, installationToken, startTestRegistry, type TestApp, type TestRegistry } from '@test/support/registry';
import { buildFixture, type Fixture } from '@test/support/fixture';

let t: TestRegistry;
let f: Fixture;
let plainApp: TestApp;
let examinerApp: TestApp;
let installations: Record<'view' | 'write' | 'info', string>;

beforeAll(async () => {
  t = await startTestRegistry({ setup: (r) => void (f = buildFixture(r)) });
  plainApp = createTestApp(t.registry, { name: 'Plain app' });
  examinerApp = createTestApp(t.registry, { name: 'Examiner', examinerRead: true, keyIndex: 1 });
  installations = {
    write: ops.installApp(t.registry, { appId: plainApp.id, organizationId: f.orgA, permissions: { organization_warehouse: 'WRITE' } }).id,
    view: ops.installApp(t.registry, { appId: plainApp.id, organizationId: f.orgB, permissions: { organization_warehouse: 'VIEW' } }).id,
    info: ops.installApp(t.registry, { appId: plainApp.id, organizationId: f.orgC, permissions: { organization_info: 'VIEW' } }).id,
  };
});
afterAll(() => t.close());

/** A request for the endpoint that passes validation as far as the fixture allows. */
function requestFor(id: EndpointId, organizationId: string): { path: string; method: string; body?: string } {
  const e = endpoints[id] as EndpointDefinition;
  const params: Record<string, string> = {
    id: e.auth.kind === 'accessToken' && e.auth.organizationParam ? organizationId : f.projectId,
    projectId: f.projectId,
    retirementId: 'no-such-retirement',
    reservationId: 'no-such-reservation',
    installationId: installations.write,
    action: 'transfer',
  };
  const query: Record<string, string> = {
    listProjects: '?limit=1&page=0',
    listInternalProjects: '?limit=1&page=0',
    findProject: `?creditId=${encodeURIComponent(f.creditId)}`,
    getRetirement: '?id=no-such-retirement',
  };
  const bodies: Partial<Record<EndpointId, unknown>> = {
    createReservation: { creditId: f.creditId, amount: 1 },
    finishReservation: { receiverId: f.orgB },
    finalizeRetirement: {
      signer: `0x${'1'.repeat(40)}`,
      signature: `0x${'2'.repeat(130)}`,
      signedData: { beneficiary: 'b', comment: '', reason: 'r', projectAddress: `0x${'3'.repeat(40)}`, tokenId: '1' },
    },
  };
  return {
    path: fillPath(e.path, params) + (query[id] ?? ''),
    method: e.method,
    ...(e.body ? { body: JSON.stringify(bodies[id] ?? {}) } : {}),
  };
}

/** Exactly the credential the table asks for, and one that falls one step short (if any). */
async function credentialsFor(e: EndpointDefinition): Promise<{ exact: string; short?: string; organizationId: string }> {
  if (e.auth.kind === 'operator' || e.auth.kind === 'operatorJwt') throw new Error('operator endpoints are walked elsewhere');
  if (e.auth.kind === 'appJwt') return { exact: await plainApp.jwt(), short: await appToken(t, plainApp), organizationId: f.orgA };
  const permission: RequiredPermission | undefined = e.auth.permission;
  switch (permission) {
    case undefined:
      return { exact: await appToken(t, plainApp), organizationId: f.orgA };
    case 'examiner:read':
      return {
        exact: await appToken(t, examinerApp),
        short: await installationToken(t, plainApp, installations.write),
        organizationId: f.orgA,
      };
    case 'organization_warehouse:read':
      return {
        exact: await installationToken(t, plainApp, installations.view),
        short: await installationToken(t, plainApp, installations.info),
        organizationId: f.orgB,
      };
    case 'organization_warehouse:write':
      return {
        exact: await installationToken(t, plainApp, installations.write),
        short: await installationToken(t, plainApp, installations.view),
        organizationId: f.orgA,
      };
    case 'organization_info:read':
      return { exact: await installationToken(t, plainApp, installations.info), organizationId: f.orgC };
  }
}

const seedEndpointIds = endpointIds.filter((id) => endpoints[id].auth.kind === 'appJwt' || endpoints[id].auth.kind === 'accessToken');

describe.each(seedEndpointIds)('%s', (id) => {
  const e = endpoints[id] as EndpointDefinition;

  it('refuses a request without credentials with 401', async () => {
    const { path, method, body } = requestFor(id, f.orgA);
    const res = await t.call(path, { method, ...(body !== undefined ? { body } : {}) });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
  });

  it('accepts exactly its permission and refuses one step less', async () => {
    const creds = await credentialsFor(e);
    const request = requestFor(id, creds.organizationId);
    const init = { method: request.method, ...(request.body !== undefined ? { body: request.body } : {}) };
    const accepted = await t.call(request.path, { ...init, token: creds.exact });
    const text = await accepted.text();
    expect([401, 403, 500], `${request.method} ${request.path}: ${text}`).not.toContain(accepted.status);
    if (creds.short) {
      const refused = await t.call(request.path, { ...init, token: creds.short });
      expect([401, 403]).toContain(refused.status);
    }
  });
});
