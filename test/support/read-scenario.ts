// A registry with a known history for the read-endpoint tests: the shared fixture plus more
// vintages and types, claimed, unclaimed and redacted retirements, cancellations, transfers into
// the registry's adjustment and organization accounts, non-public projects and documents. Every
// amount is kept here so the tests compute their expectations from what was done, never from what
// the server answered.
import { expect } from 'vitest';
import { endpoints } from '@shared/registry/endpoints';
import { gramsToTonnes, tonnesToGrams } from '@shared/registry/amounts';
import {
  strict,
  type CreditEvent,
  type CreditSummary,
  type ErrorBody,
  type InternalProject,
  type InventoryCredit,
  type InventorySummary,
  type Organization,
  type OrganizationSummary,
  type Pagination,
  type Project,
  type ProjectReference,
  type Retirement,
} from '@shared/registry/resources';
import { AdjustableClock } from '@platform/clock';
import type { TestRegistry } from './registry';
import type { OpenedRegistry } from '@registry/open';
import * as ops from '@registry/operations';
import { buildFixture, type Fixture } from './fixture';

export const WALLET = '0x1111111111111111111111111111111111111111';

/** Tonnes to the exact wire number of a sum of grams: sum(t1, t2, …) without float drift. */
export function tonnes(...amounts: number[]): number {
  return gramsToTonnes(amounts.reduce((sum, t) => sum + tonnesToGrams(t), 0));
}

export interface ReadScenario extends Fixture {
  /** The fixture's ex-post 2022 credit: issued 1000 t, 10 % buffer, 500 t deposited in A's warehouse. */
  issued2022: number;
  buffer2022: number;
  exAnte2023: { creditId: string; issued: number; buffer: number };
  exPost2023: { creditId: string; issued: number; buffer: number; eventId: string };
  /** Retirement ids by kind, with their amounts. */
  claimedSmall: { id: string; amount: number }[];
  claimed2023: { id: string; amount: number };
  onchain: { id: string; amount: number };
  redacted: { id: string; amount: number };
  cancelledExPost2022: number;
  cancelledExAnteFromBuffer: number;
  bufferToAdjustment: number;
  inventoryToRegistry: number;
  transferredToC: number;
  /** Public: a registered project of B. Not public: a validated project of unverified C. */
  publicProjectOfB: string;
  projectOfC: string;
  hiddenDocumentName: string;
}

type Inventory = { summary: InventorySummary; organization: OrganizationSummary; credits: InventoryCredit[] };

/**
 * The success bodies of the read endpoints, as static types (the endpoint table's response
 * builders are typed loosely); getOk checks each body at run time with the strict schema.
 */
export interface ReadResponses {
  listProjects: { pagination: Pagination; projects: Project[] };
  listInternalProjects: { pagination: Pagination; projects: Project[] };
  getInternalProject: { project: InternalProject };
  findProject: Project;
  getProject: { pagination: Pagination; projects: Project[] };
  listRetirementsV1: { retirements: Retirement[]; pagination: Pagination };
  getRetirementV1: { retirement: Retirement };
  listEntityRetirementsV1: { retirements: Retirement[] };
  listRetirements: { retirements: Retirement[] };
  getRetirement: Retirement;
  getProjectCredits: {
    summary: CreditSummary;
    vintages: { events: CreditEvent[]; vintage: string; summary: CreditSummary }[];
    project: ProjectReference;
  };
  getBufferInventory: Inventory;
  getAdjustmentInventory: Inventory;
  getOrganizationInventory: Inventory;
  getOrganizationV1: { organization: Organization };
}

/** GETs a path expecting 200 and parses the body with the endpoint's strict response schema. */
export async function getOk<K extends keyof ReadResponses>(t: TestRegistry, id: K, path: string, token: string): Promise<ReadResponses[K]> {
  const res = await t.call(path, { token });
  const body: unknown = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(200);
  return endpoints[id].response(strict).parse(body) as ReadResponses[K];
}

/** GETs a path expecting an error status with the JSON error body of compatibility.md. */
export async function getError(t: TestRegistry, path: string, token: string, status: number): Promise<ErrorBody> {
  const res = await t.call(path, { token });
  const body: unknown = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(status);
  const error = strict.errorBody.parse(body);
  expect(error.statusCode).toBe(status);
  return error;
}

export function buildReadScenario(registry: OpenedRegistry): ReadScenario {
  // Each step one second after the last, so "newest first" has one right answer.
  const tick = () => (registry.clock instanceof AdjustableClock ? registry.clock.advance(1000) : undefined);
  const f = buildFixture(registry);
  tick();
  const files = [
    { fileName: 'monitoring-2023.pdf', size: 123_456, url: 'https://files.example.org/mr-2023.pdf', type: 'monitoringReport' },
  ];
  const exAnte = ops.issueCredits(registry, {
    projectId: f.projectId,
    vintage: '2023',
    type: 'exAnte',
    amount: 200,
    bufferBasisPoints: 2500,
    monitoringPeriodStart: '2023-01-01',
    monitoringPeriodEnd: '2023-12-31',
    verificationBodyId: f.validatorId,
  });
  const exPost = ops.issueCredits(registry, {
    projectId: f.projectId,
    vintage: '2023',
    type: 'exPost',
    amount: 300,
    bufferBasisPoints: 1000,
    monitoringPeriodStart: '2023-01-01',
    monitoringPeriodEnd: '2023-12-31',
    verificationBodyId: f.validatorId,
    files,
  });

  const retire = (organizationId: string, creditId: string, amount: number) => (
    tick(),
    {
      id: ops.retireFromInventory(registry, {
        organizationId,
        creditId,
        amount,
        beneficiary: 'Jane Doe',
        reason: 'Offsetting 2024 flights',
        comment: 'Thanks',
      }).retirementId,
      amount,
    }
  );
  const claimedSmall = [retire(f.orgA, f.creditId, 0.1), retire(f.orgA, f.creditId, 0.1), retire(f.orgA, f.creditId, 0.1)];
  const claimed2023 = retire(f.orgA, exPost.creditId, 10);
  tick();
  const onchain = {
    id: ops.recordOnchainRetirement(registry, { walletAddress: WALLET, creditId: f.creditId, amount: 5, fromOrganizationId: f.orgA })
      .retirementId,
    amount: 5,
  };
  const transferredToC = 20;
  ops.transferCredits(registry, {
    from: { kind: 'inventory', organizationId: f.orgA },
    to: { kind: 'inventory', organizationId: f.orgC },
    creditId: f.creditId,
    amount: transferredToC,
  });
  const redacted = retire(f.orgC, f.creditId, 2);

  const cancelledExPost2022 = 7;
  ops.cancelCredits(registry, {
    from: { kind: 'inventory', organizationId: f.orgA },
    creditId: f.creditId,
    amount: cancelledExPost2022,
    reason: 'Corrected monitoring report',
  });
  const cancelledExAnteFromBuffer = 3;
  ops.cancelCredits(registry, {
    from: { kind: 'buffer' },
    creditId: exAnte.creditId,
    amount: cancelledExAnteFromBuffer,
    reason: 'Buffer release',
  });
  const bufferToAdjustment = 4;
  ops.transferCredits(registry, { from: { kind: 'buffer' }, to: { kind: 'adjustment' }, creditId: f.creditId, amount: bufferToAdjustment });
  const inventoryToRegistry = 6;
  ops.transferCredits(registry, {
    from: { kind: 'inventory', organizationId: f.orgA },
    to: { kind: 'registry' },
    creditId: exPost.creditId,
    amount: inventoryToRegistry,
  });

  const projectBase = {
    startDate: '2021-03-01T00:00:00.000Z',
    creditingPeriodStartDate: '2021-03-01T00:00:00.000Z',
    sector: { id: 'energy', title: 'Energy' },
    methodology: { id: 'icr-re-002', title: 'Renewable energy' },
    type: { id: 'avoidance', title: 'Avoidance', description: 'Avoids emissions' },
  };
  const hiddenDocumentName = 'Internal due diligence';
  const publicProjectOfB = ops.createProject(registry, {
    ...projectBase,
    fullName: 'Baltic Wind',
    countryCode: 'DE',
    status: 'submitted',
    organizationId: f.orgB,
    proponentIds: [f.orgA],
    validatorIds: [f.validatorId],
    city: 'Rostock',
    state: 'MV',
    thumbnail: 'https://img.example.org/wind.png',
    estimatedAnnualMitigations: ['1500', null, '1700'],
    documentation: [
      { uri: 'https://files.example.org/pdd.pdf', type: 'projectDesign', name: 'Project design' },
      { uri: 'https://files.example.org/dd.pdf', type: 'other', name: hiddenDocumentName, isPublic: false },
      { uri: 'https://files.example.org/vr.pdf', type: 'validationReport', name: 'Validation report' },
    ],
    kmlFile: { uri: 'https://files.example.org/site.kml', type: 'kml', name: 'Site' },
    otherBenefits: [
      { id: 3, title: 'Jobs', checked: true, description: 'Local jobs' },
      { id: 1, title: 'Biodiversity', checked: false },
    ],
  }).id;
  ops.changeProjectStatus(registry, { projectId: publicProjectOfB, status: 'validated' });
  ops.changeProjectStatus(registry, { projectId: publicProjectOfB, status: 'registered' });
  const projectOfC = ops.createProject(registry, {
    ...projectBase,
    fullName: 'Cerrado Solar',
    countryCode: 'BR',
    status: 'submitted',
    organizationId: f.orgC,
  }).id;
  ops.changeProjectStatus(registry, { projectId: projectOfC, status: 'validated' });

  return {
    ...f,
    issued2022: 1000,
    buffer2022: (1000 * 1000) / 10_000,
    exAnte2023: { creditId: exAnte.creditId, issued: 200, buffer: (200 * 2500) / 10_000 },
    exPost2023: { creditId: exPost.creditId, issued: 300, buffer: (300 * 1000) / 10_000, eventId: exPost.eventId },
    claimedSmall,
    claimed2023,
    onchain,
    redacted,
    cancelledExPost2022,
    cancelledExAnteFromBuffer,
    bufferToAdjustment,
    inventoryToRegistry,
    transferredToC,
    publicProjectOfB,
    projectOfC,
    hiddenDocumentName,
  };
}
