// 4.4 Credits over real HTTP: a project's summary and vintages, and the registry's three account
// inventories, with every figure computed from the operations of the scenario.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InventoryCredit } from '@shared/registry/resources';
import { findAccountId } from '@registry/ledger';
import { createOrganization } from '@registry/operations';
import { insertRetirement } from '@registry/ledger';
import { appToken, createTestApp, startTestRegistry, type TestRegistry } from '@test/support/registry';
import { buildReadScenario, getError, getOk, tonnes, type ReadScenario } from '@test/support/read-scenario';

let t: TestRegistry;
let s: ReadScenario;
let token: string;
let examinerToken: string;

beforeAll(async () => {
  t = await startTestRegistry({ setup: (r) => void (s = buildReadScenario(r)) });
  token = await appToken(t, createTestApp(t.registry));
  examinerToken = await appToken(t, createTestApp(t.registry, { examinerRead: true }));
});
afterAll(() => t.close());

describe('GET /carbonCredits/projects/{id}', () => {
  it('summarizes the whole project from the ledger', async () => {
    const body = await getOk(t, 'getProjectCredits', `/carbonCredits/projects/${s.projectId}`, token);
    const retired = tonnes(...s.claimedSmall.map((r) => r.amount), s.claimed2023.amount, s.onchain.amount, s.redacted.amount);
    expect(body.summary).toEqual({
      exPost: tonnes(s.issued2022, s.exPost2023.issued),
      exPostCancelled: s.cancelledExPost2022,
      exAnte: s.exAnte2023.issued,
      exAnteCancelled: s.cancelledExAnteFromBuffer,
      retired,
      validated: tonnes(s.issued2022, s.exPost2023.issued, -s.cancelledExPost2022),
    });
    expect(body.project).toEqual({
      id: s.projectId,
      fullName: 'Kilimanjaro Reforestation',
      url: `${t.registry.urls.apiBaseUrl}/projects/${s.projectId}`,
      publicUrl: `${t.registry.urls.publicBaseUrl}/projects/${s.projectId}`,
      num: '1',
    });
  });

  it('keeps fractional retirements exact: three retirements of 0.1 t are 0.3 t', async () => {
    const body = await getOk(t, 'getProjectCredits', `/carbonCredits/projects/${s.projectId}`, token);
    const v2022 = body.vintages.find((v) => v.vintage === '2022')!;
    // 0.3 + 5 + 2, each exact; the float sum 0.1 + 0.1 + 0.1 would be 0.30000000000000004
    expect(v2022.summary.retired).toBe(7.3);
    expect(tonnes(0.1, 0.1, 0.1)).toBe(0.3);
  });

  it('summarizes each vintage and lists its issuance events with files and verification body', async () => {
    const body = await getOk(t, 'getProjectCredits', `/carbonCredits/projects/${s.projectId}`, token);
    expect(body.vintages.map((v) => v.vintage)).toEqual(['2022', '2023']);
    const [v2022, v2023] = body.vintages as [(typeof body.vintages)[0], (typeof body.vintages)[0]];
    expect(v2022.summary).toEqual({
      exPost: s.issued2022,
      exPostCancelled: s.cancelledExPost2022,
      exAnte: 0,
      exAnteCancelled: 0,
      retired: tonnes(...s.claimedSmall.map((r) => r.amount), s.onchain.amount, s.redacted.amount),
      validated: tonnes(s.issued2022, -s.cancelledExPost2022),
    });
    expect(v2023.summary).toEqual({
      exPost: s.exPost2023.issued,
      exPostCancelled: 0,
      exAnte: s.exAnte2023.issued,
      exAnteCancelled: s.cancelledExAnteFromBuffer,
      retired: s.claimed2023.amount,
      validated: s.exPost2023.issued,
    });
    expect(v2022.events.map((e) => e.amount)).toEqual([s.issued2022]);
    // oldest first: the ex-ante issuance came before the ex-post one
    expect(v2023.events.map((e) => e.amount)).toEqual([s.exAnte2023.issued, s.exPost2023.issued]);
    const event = v2023.events[1]!;
    expect(event).toMatchObject({
      id: s.exPost2023.eventId,
      vintage: '2023',
      type: 'issuance',
      creditType: 'carbon',
      monitoringPeriodStart: '2023-01-01T00:00:00.000Z',
      monitoringPeriodEnd: '2023-12-31T00:00:00.000Z',
      verificationBody: {
        id: s.validatorId,
        directoryUrl: `${t.registry.urls.publicBaseUrl}/organizations/${s.validatorId}`,
        fullName: 'Valid Verifiers',
      },
    });
    expect(event.files).toHaveLength(1);
    expect(event.files[0]).toMatchObject({
      fileName: 'monitoring-2023.pdf',
      size: 123_456,
      url: 'https://files.example.org/mr-2023.pdf',
      type: 'monitoringReport',
    });
    expect(v2023.events[0]!.files).toEqual([]);
  });

  it('answers zeros and no vintages for a public project without credits', async () => {
    const body = await getOk(t, 'getProjectCredits', `/carbonCredits/projects/${s.publicProjectOfB}`, token);
    expect(body.vintages).toEqual([]);
    expect(body.summary).toEqual({ exPost: 0, exPostCancelled: 0, exAnte: 0, exAnteCancelled: 0, retired: 0, validated: 0 });
  });

  it('hides non-public projects except from examiners, and 404s unknown ones', async () => {
    for (const id of [s.draftProjectId, s.projectOfC]) {
      await getError(t, `/carbonCredits/projects/${id}`, token, 404);
      const body = await getOk(t, 'getProjectCredits', `/carbonCredits/projects/${id}`, examinerToken);
      expect(body.project.id).toBe(id);
    }
    await getError(t, '/carbonCredits/projects/unknown-project', examinerToken, 404);
  });
});

describe('registry account inventories', () => {
  const creditOf = (credits: InventoryCredit[], id: string) => credits.find((c) => c.id === id);

  it('buffer: the buffer shares of each issuance, less what was cancelled or moved out', async () => {
    const body = await getOk(t, 'getBufferInventory', '/carbonCredits/icr/inventory/buffer', token);
    const exPost2022 = tonnes(s.buffer2022, -s.bufferToAdjustment);
    const exAnte2023 = tonnes(s.exAnte2023.buffer, -s.cancelledExAnteFromBuffer);
    expect(body.summary).toEqual({ exPost: tonnes(exPost2022, s.exPost2023.buffer), exAnte: exAnte2023, retired: 0 });
    expect(body.organization).toEqual({
      fullName: 'Registry Operator',
      logo: '',
      id: s.registryOrgId,
      publicUrl: `${t.registry.urls.publicBaseUrl}/organizations/${s.registryOrgId}`,
    });
    expect(body.credits.map((c) => c.amount).sort()).toEqual([exPost2022, s.exPost2023.buffer, exAnte2023].sort());
    const c = creditOf(body.credits, s.creditId)!;
    const [, tokenId, tokenAddress] = s.creditId.split('-') as [string, string, string];
    expect(c).toEqual({
      organizationId: s.registryOrgId,
      id: s.creditId,
      tokenId,
      tokenAddress,
      project: expect.objectContaining({ id: s.projectId, num: '1' }),
      serialization: s.serialization,
      vintage: '2022',
      supply: s.issued2022,
      unit: 'tonne',
      amount: exPost2022,
      type: 'exPost',
    });
    expect(creditOf(body.credits, s.exAnte2023.creditId)).toMatchObject({ type: 'exAnte', supply: s.exAnte2023.issued, vintage: '2023' });
  });

  it('adjustment: what was moved into it', async () => {
    const body = await getOk(t, 'getAdjustmentInventory', '/carbonCredits/icr/inventory/adjustment', token);
    expect(body.summary).toEqual({ exPost: s.bufferToAdjustment, exAnte: 0, retired: 0 });
    expect(body.credits.map((c) => [c.id, c.amount])).toEqual([[s.creditId, s.bufferToAdjustment]]);
  });

  it("organization: the registry's own account", async () => {
    const body = await getOk(t, 'getOrganizationInventory', '/carbonCredits/icr/inventory/organization', token);
    expect(body.summary).toEqual({ exPost: s.inventoryToRegistry, exAnte: 0, retired: 0 });
    expect(body.credits.map((c) => [c.id, c.amount, c.supply])).toEqual([
      [s.exPost2023.creditId, s.inventoryToRegistry, s.exPost2023.issued],
    ]);
    expect(body.organization.id).toBe(s.registryOrgId);
  });

  it('counts what was retired out of the account (runs last: it changes the books)', async () => {
    const retiredHere = 1.5;
    const account = findAccountId(t.registry, { kind: 'registry' })!;
    t.registry.db.transaction(() =>
      insertRetirement(t.registry, {
        creditId: s.exPost2023.creditId,
        fromAccount: account,
        amount: retiredHere * 1_000_000,
        source: 'inventory',
        organizationId: s.registryOrgId,
        beneficiary: 'Registry',
        reason: 'Buffer release retirement',
      }),
    );
    const body = await getOk(t, 'getOrganizationInventory', '/carbonCredits/icr/inventory/organization', token);
    expect(body.summary).toEqual({ exPost: tonnes(s.inventoryToRegistry, -retiredHere), exAnte: 0, retired: retiredHere });
  });

  it('needs an access token', async () => {
    const res = await t.call('/carbonCredits/icr/inventory/organization');
    expect(res.status).toBe(401);
  });
});

describe('a registry without its operator organization or accounts', () => {
  it('answers empty inventories once the operator exists, 404 before', async () => {
    const bare = await startTestRegistry();
    try {
      const bareToken = await appToken(bare, createTestApp(bare.registry));
      const error = await getError(bare, '/carbonCredits/icr/inventory/buffer', bareToken, 404);
      expect(error.message).toMatch(/registry operator organization/);
      createOrganization(bare.registry, {
        fullName: 'Operator',
        type: 'registryOperator',
        countryCode: 'CH',
        isRegistry: true,
        verified: true,
      });
      const body = await getOk(bare, 'getAdjustmentInventory', '/carbonCredits/icr/inventory/adjustment', bareToken);
      expect(body).toMatchObject({ summary: { exPost: 0, exAnte: 0, retired: 0 }, credits: [] });
    } finally {
      await bare.close();
    }
  });
});
