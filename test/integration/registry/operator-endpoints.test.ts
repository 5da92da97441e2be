// Walks the operator rows of the endpoint table: for every operator endpoint, no token is 401, a
// seed (app or installation) token is 401, each role below the required one is 403 and leaves one
// refused audit entry for a write, and the required role is accepted. New operator endpoints are
// covered the day they are added to the table.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointIds, endpoints, fillPath, type EndpointDefinition, type EndpointId } from '@shared/registry/endpoints';
import { strict } from '@shared/registry/resources';
import { OPERATOR_ROLES, type OperatorRole } from '@shared/registry/vocabulary';
import * as ops from '@registry/operations';
import { buildFixture, type Fixture } from '@test/support/fixture';
import { auditRows, createTestOperator, operatorToken, type TestOperator } from '@test/support/operators';
import { appToken, createTestApp, rsaKeyPair, startTestRegistry, type TestApp, type TestRegistry } from '@test/support/registry';

let t: TestRegistry;
let f: Fixture;
let app: TestApp;
let installationId: string;
const operators = {} as Record<OperatorRole, TestOperator>;
const tokens = {} as Record<OperatorRole, string>;

beforeAll(async () => {
  t = await startTestRegistry({ setup: (r) => void (f = buildFixture(r)) });
  app = createTestApp(t.registry, { name: 'Walk app' });
  installationId = ops.installApp(t.registry, {
    appId: app.id,
    organizationId: f.orgA,
    permissions: { organization_warehouse: 'WRITE' },
  }).id;
  for (const [i, role] of OPERATOR_ROLES.entries()) {
    operators[role] = createTestOperator(t.registry, role, 2 + i);
    tokens[role] = await operatorToken(t, operators[role]);
  }
});
afterAll(() => t.close());

const operatorIds = endpointIds.filter((id) => endpoints[id].auth.kind === 'operator');

/** A request for the endpoint that passes validation as far as the fixture allows. */
function requestFor(id: EndpointId): { path: string; method: string; body?: string } {
  const e = endpoints[id] as EndpointDefinition;
  const params: Record<string, string> = {
    organizationId: f.orgC,
    projectId: f.draftProjectId,
    appId: app.id,
    installationId,
    operatorId: operators.viewer.id,
    operation: 'transfer',
  };
  const query: Partial<Record<EndpointId, string>> = {
    operatorCreditHistory: `?creditId=${encodeURIComponent(f.creditId)}`,
    operatorCreditTrail: `?creditId=${encodeURIComponent(f.creditId)}`,
    operatorPreview: `?${new URLSearchParams({ from: `inventory:${f.orgA}`, to: 'adjustment', creditId: f.creditId, amount: '1' })}`,
  };
  const bodies: Partial<Record<EndpointId, unknown>> = {
    operatorCreateOrganization: { fullName: 'Walked Org', countryCode: 'KE', type: 'projectProponent' },
    operatorUpdateOrganization: { city: 'Walked City' },
    operatorSetOrganizationVerified: { verified: true },
    operatorCreateProject: {
      fullName: 'Walked Project',
      startDate: '2021-01-01',
      creditingPeriodStartDate: '2021-01-01',
      countryCode: 'KE',
      sector: { id: 'forestry', title: 'Forestry' },
      methodology: { id: 'm', title: 'M' },
      type: { id: 'removal', title: 'Removal' },
      organizationId: f.orgA,
    },
    operatorUpdateProject: { fullName: 'Walked draft' },
    operatorSetProjectStatus: { status: 'submitted' },
    operatorIssueCredits: {
      projectId: f.projectId,
      vintage: '2023',
      amount: 1,
      monitoringPeriodStart: '2023-01-01',
      monitoringPeriodEnd: '2023-12-31',
      verificationBodyId: f.validatorId,
    },
    operatorDeposit: { organizationId: f.orgA, creditId: f.creditId, amount: 1 },
    operatorWithdraw: { organizationId: f.orgA, creditId: f.creditId, amount: 1 },
    operatorTransfer: { from: { kind: 'inventory', organizationId: f.orgA }, to: { kind: 'adjustment' }, creditId: f.creditId, amount: 1 },
    operatorCancel: { from: { kind: 'adjustment' }, creditId: f.creditId, amount: 1, reason: 'Test cancellation' },
    operatorRetire: { organizationId: f.orgA, creditId: f.creditId, amount: 1, beneficiary: 'B', reason: 'R' },
    operatorRecordOnchainRetirement: { walletAddress: `0x${'a'.repeat(40)}`, creditId: f.creditId, amount: 1, fromOrganizationId: f.orgA },
    operatorCreateApp: { name: 'Walked app', publicKeyPem: rsaKeyPair(1).publicKeyPem },
    operatorSetExaminer: { granted: true },
    operatorInstallApp: { appId: app.id, organizationId: f.orgB, permissions: { organization_warehouse: 'VIEW' } },
    operatorSetInstallationStatus: { status: 'active' },
    operatorCreateOperator: { name: 'Walked operator', role: 'viewer', publicKeyPem: rsaKeyPair(1).publicKeyPem },
    operatorSetOperatorActive: { active: true },
  };
  return {
    path: fillPath(e.path, params) + (query[id] ?? ''),
    method: e.method,
    ...(e.body ? { body: JSON.stringify(bodies[id] ?? {}) } : {}),
  };
}

describe('the operator endpoint table', () => {
  it('has operator rows for every CLI write and the reads the back office needs', () => {
    expect(operatorIds.length).toBeGreaterThanOrEqual(26);
    for (const id of operatorIds) expect(endpoints[id].path.startsWith('/operator/v1/')).toBe(true);
  });
});

describe.each(operatorIds)('%s', (id) => {
  const e = endpoints[id] as EndpointDefinition;
  const required = e.auth.kind === 'operator' ? e.auth.role : 'administrator';
  const lower = OPERATOR_ROLES.slice(0, OPERATOR_ROLES.indexOf(required));

  it('refuses no token and a seed token with 401', async () => {
    const { path, method, body } = requestFor(id);
    const init = { method, ...(body !== undefined ? { body } : {}) };
    const none = await t.call(path, init);
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    const seed = await t.call(path, { ...init, token: await appToken(t, app) });
    expect(seed.status).toBe(401);
    // an operator's own JWT is for POST /operator/v1/tokens only
    expect((await t.call(path, { ...init, token: await operators.administrator.jwt() })).status).toBe(401);
  });

  // every refused operator request leaves one entry; a success only when it is a write or a dry run
  const action = e.audit ?? (id === 'operatorPreview' ? expect.stringMatching(/^preview\./) : `read.${id}`);
  const auditedOnSuccess = e.audit !== undefined || id === 'operatorPreview';
  it(`refuses every role below ${required} with 403 (one refused audit entry each) and accepts ${required}`, async () => {
    const { path, method, body } = requestFor(id);
    const init = { method, ...(body !== undefined ? { body } : {}) };
    for (const role of lower) {
      const before = auditRows(t.registry).length;
      const res = await t.call(path, { ...init, token: tokens[role] });
      expect(res.status, `${role}: ${await res.clone().text()}`).toBe(403);
      const after = auditRows(t.registry);
      expect(after.length).toBe(before + 1);
      expect(after.at(-1)).toMatchObject({ operator_id: operators[role].id, action, outcome: 'refused' });
    }
    const before = auditRows(t.registry).length;
    const accepted = await t.call(path, { ...init, token: tokens[required] });
    const text = await accepted.text();
    expect([401, 403, 500], `${method} ${path}: ${text}`).not.toContain(accepted.status);
    // the fixture makes every request valid: the answer is the success the table describes
    expect(accepted.status, text).toBe(e.status ?? 200);
    e.response(strict).parse(JSON.parse(text));
    expect(auditRows(t.registry).length).toBe(before + (auditedOnSuccess ? 1 : 0));
  });
});

describe('GET /operator/v1/me', () => {
  it("answers each caller's own account, whatever its role", async () => {
    for (const role of OPERATOR_ROLES) {
      const res = await t.call('/operator/v1/me', { token: tokens[role] });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ operator: { id: operators[role].id, role, active: true } });
    }
  });
});

describe('operator tokens', () => {
  it('are refused by the seed endpoints with 401', async () => {
    const res = await t.call('/projects?limit=1', { token: tokens.administrator });
    expect(res.status).toBe(401);
    const installation = await t.call(`/organizations/${f.orgA}/warehouse/inventory`, { token: tokens.administrator });
    expect(installation.status).toBe(401);
  });

  it('stop at once when the operator is disabled', async () => {
    const manager = createTestOperator(t.registry, 'manager', 5);
    const token = await operatorToken(t, manager);
    expect((await t.call('/operator/v1/organizations?limit=1', { token })).status).toBe(200);
    const disable = await t.call(`/operator/v1/operators/${manager.id}/active`, {
      method: 'POST',
      token: tokens.administrator,
      body: JSON.stringify({ active: false }),
    });
    expect(disable.status).toBe(200);
    expect((await t.call('/operator/v1/organizations?limit=1', { token })).status).toBe(401);
    const again = await t.call('/operator/v1/tokens', { method: 'POST', token: await manager.jwt(), body: '{}' });
    expect(again.status).toBe(401);
  });

  it('expire after an hour, and need a JWT of at most 10 minutes', async () => {
    const viewer = createTestOperator(t.registry, 'viewer', 2);
    const long = await t.call('/operator/v1/tokens', { method: 'POST', token: await viewer.jwt({ lifetimeS: 3600 }), body: '{}' });
    expect(long.status).toBe(401);
    const res = await t.call('/operator/v1/tokens', { method: 'POST', token: await viewer.jwt(), body: '{}' });
    expect(res.status).toBe(201);
    const { token, expiresAt } = (await res.json()) as { token: string; expiresAt: string };
    expect(Date.parse(expiresAt) - t.registry.clock.now()).toBeGreaterThan(59 * 60 * 1000);
    expect(Date.parse(expiresAt) - t.registry.clock.now()).toBeLessThanOrEqual(60 * 60 * 1000);
    const stored = t.registry.db.raw.prepare('SELECT token_hash FROM operator_tokens').all() as { token_hash: string }[];
    expect(stored.some((s) => s.token_hash === token)).toBe(false);
    t.clock.advance(60 * 60 * 1000 + 1);
    expect((await t.call('/operator/v1/audit?limit=1', { token })).status).toBe(401);
    tokens.viewer = await operatorToken(t, operators.viewer);
    tokens.manager = await operatorToken(t, operators.manager);
    tokens.administrator = await operatorToken(t, operators.administrator);
  });
});
