// 4.7 GET /v1/organizations/{id} over real HTTP, with the visibility rule for non-public ones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as ops from '@registry/operations';
import { appToken, createTestApp, installationToken, startTestRegistry, type TestRegistry } from '@test/support/registry';
import { buildFixture, type Fixture } from '@test/support/fixture';
import { getError, getOk } from '@test/support/read-scenario';

let t: TestRegistry;
let f: Fixture;
let token: string;
let examinerToken: string;
let tokenOfC: string;
let tokenOfA: string;

beforeAll(async () => {
  t = await startTestRegistry({ setup: (r) => void (f = buildFixture(r)) });
  const app = createTestApp(t.registry);
  token = await appToken(t, app);
  examinerToken = await appToken(t, createTestApp(t.registry, { examinerRead: true }));
  const installC = ops.installApp(t.registry, { appId: app.id, organizationId: f.orgC, permissions: { organization_info: 'VIEW' } });
  const installA = ops.installApp(t.registry, { appId: app.id, organizationId: f.orgA, permissions: { organization_info: 'VIEW' } });
  tokenOfC = await installationToken(t, app, installC.id);
  tokenOfA = await installationToken(t, app, installA.id);
});
afterAll(() => t.close());

describe('GET /v1/organizations/{id}', () => {
  it('answers a public organization to any access token', async () => {
    const { organization } = await getOk(t, 'getOrganizationV1', `/v1/organizations/${f.orgA}`, token);
    expect(organization).toMatchObject({
      id: f.orgA,
      fullName: 'Alpha Forests Ltd',
      countryCode: 'KE',
      type: 'projectProponent',
      isPublic: true,
      url: `${t.registry.urls.apiBaseUrl}/v1/organizations/${f.orgA}`,
      organizationIndustries: { code: '', name: '' },
    });
    const viaOther = await getOk(t, 'getOrganizationV1', `/v1/organizations/${f.orgA}`, tokenOfC);
    expect(viaOther.organization).toEqual(organization);
  });

  it('shows a non-public organization only to its own installations and to examiners', async () => {
    const own = await getOk(t, 'getOrganizationV1', `/v1/organizations/${f.orgC}`, tokenOfC);
    expect(own.organization).toMatchObject({ id: f.orgC, isPublic: false, fullName: 'Gamma Unverified' });
    const examiner = await getOk(t, 'getOrganizationV1', `/v1/organizations/${f.orgC}`, examinerToken);
    expect(examiner).toEqual(own);
  });

  it('answers others exactly as for an unknown id, so a hidden organization does not leak', async () => {
    const hiddenForApp = await getError(t, `/v1/organizations/${f.orgC}`, token, 404);
    const hiddenForA = await getError(t, `/v1/organizations/${f.orgC}`, tokenOfA, 404);
    const unknownId = '00000000-0000-4000-8000-000000000000';
    const unknown = await getError(t, `/v1/organizations/${unknownId}`, token, 404);
    expect(hiddenForApp).toEqual({ ...unknown, message: String(unknown.message).replace(unknownId, f.orgC) });
    expect(hiddenForA).toEqual(hiddenForApp);
  });

  it('needs an access token', async () => {
    expect((await t.call(`/v1/organizations/${f.orgA}`)).status).toBe(401);
  });
});
