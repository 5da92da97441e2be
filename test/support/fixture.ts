// A small, fully known registry for focused tests: a registry operator, two verified proponents
// (A and B), an unverified one (C), a validator; one validated project of A with an ex-post
// issuance, part of it deposited in A's warehouse; one draft project.
import type { OpenedRegistry } from '@registry/open';
import * as ops from '@registry/operations';

export interface Fixture {
  registryOrgId: string;
  orgA: string;
  orgB: string;
  orgC: string;
  validatorId: string;
  projectId: string;
  draftProjectId: string;
  creditId: string;
  serialization: string;
}

export function buildFixture(registry: OpenedRegistry): Fixture {
  const registryOrgId = ops.createOrganization(registry, {
    fullName: 'Registry Operator',
    type: 'registryOperator',
    countryCode: 'CH',
    verified: true,
    isRegistry: true,
  }).id;
  const orgA = ops.createOrganization(registry, { fullName: 'Alpha Forests Ltd', countryCode: 'KE', verified: true }).id;
  const orgB = ops.createOrganization(registry, { fullName: 'Beta Buyers AG', type: 'buyer', countryCode: 'DE', verified: true }).id;
  const orgC = ops.createOrganization(registry, { fullName: 'Gamma Unverified', countryCode: 'BR', verified: false, isPublic: false }).id;
  const validatorId = ops.createOrganization(registry, {
    fullName: 'Valid Verifiers',
    type: 'validationVerificationBody',
    countryCode: 'GB',
    verified: true,
  }).id;
  const base = {
    description: 'A reforestation project.',
    shortDescription: 'Reforestation',
    startDate: '2020-01-01T00:00:00.000Z',
    creditingPeriodStartDate: '2020-06-01T00:00:00.000Z',
    countryCode: 'KE',
    sector: { id: 'forestry', title: 'Forestry and land use' },
    methodology: { id: 'icr-ar-001', title: 'Afforestation and reforestation' },
    type: { id: 'removal', title: 'Removal', description: 'Removes CO2 from the atmosphere' },
    organizationId: orgA,
    validatorIds: [validatorId],
  };
  const project = ops.createProject(registry, {
    ...base,
    fullName: 'Kilimanjaro Reforestation',
    status: 'submitted',
    location: { lat: -3.07, lng: 37.35 },
  });
  ops.changeProjectStatus(registry, { projectId: project.id, status: 'validated' });
  const draft = ops.createProject(registry, { ...base, fullName: 'Draft Mangroves', status: 'draft' });
  const issued = ops.issueCredits(registry, {
    projectId: project.id,
    vintage: '2022',
    amount: 1000,
    bufferBasisPoints: 1000,
    monitoringPeriodStart: '2022-01-01',
    monitoringPeriodEnd: '2022-12-31',
    verificationBodyId: validatorId,
  });
  ops.depositToWarehouse(registry, { organizationId: orgA, creditId: issued.creditId, amount: 500 });
  return {
    registryOrgId,
    orgA,
    orgB,
    orgC,
    validatorId,
    projectId: project.id,
    draftProjectId: draft.id,
    creditId: issued.creditId,
    serialization: issued.serialization,
  };
}
