// The operator interface: the writes that move credits (issuance, deposits, transfers, cancellations, retirements).
import { z } from 'zod';
import { operatorResources } from '../operator-resources';
import * as inputs from '../operator-inputs';
import { ISSUABLE_PROJECT_STATUSES } from '../vocabulary';
import { noQuery, noParams, EXAMPLE_UUID, EXAMPLE_CREDIT_ID, define, warehouseMoveExample, manager } from './define';
import { refusals, refused } from './refusals';

export const operatorLedgerEndpoints = {
  operatorIssueCredits: define({
    method: 'POST',
    path: '/operator/v1/issuances',
    summary: "Issue credits of a vintage to the proponent's inventory, with the buffer share",
    params: noParams,
    query: noQuery,
    body: inputs.issueCreditsInput.meta({
      examples: [
        {
          projectId: EXAMPLE_UUID,
          vintage: '2023',
          amount: 1000,
          monitoringPeriodStart: '2023-01-01',
          monitoringPeriodEnd: '2023-12-31',
          verificationBodyId: EXAMPLE_UUID,
        },
      ],
    }),
    response: (s) =>
      s.object({
        creditId: z.string(),
        serialization: z.string(),
        eventId: z.string(),
        toInventory: z.number().int(),
        toBuffer: z.number().int(),
      }),
    auth: manager,
    tags: ['operator'],
    status: 201,
    audit: 'credits.issue',
    refusals: [
      refused(400, 'monitoringPeriodEnd is before monitoringPeriodStart'),
      refusals.noProject,
      refusals.noOrganization,
      refused(409, `the project is not ${ISSUABLE_PROJECT_STATUSES.join(' or ')} (credits are issued only then)`),
      refused(409, 'receivingOrganizationId is not a proponent of the project'),
      refused(409, 'the receiving organization has not passed business verification'),
      refusals.accountCap,
    ],
  }),
  operatorDeposit: define({
    method: 'POST',
    path: '/operator/v1/warehouse/deposits',
    summary: "Move credits from an organization's inventory into its warehouse",
    params: noParams,
    query: noQuery,
    body: warehouseMoveExample,
    response: (s) => operatorResources(s).movementResult,
    auth: manager,
    tags: ['operator'],
    status: 201,
    audit: 'warehouse.deposit',
    refusals: [
      refusals.noOrganization,
      refusals.noCredit,
      refused(409, "the organization's inventory holds less than the amount of this credit"),
      refusals.accountCap,
    ],
  }),
  operatorWithdraw: define({
    method: 'POST',
    path: '/operator/v1/warehouse/withdrawals',
    summary: "Move unreserved credits from an organization's warehouse back to its inventory",
    params: noParams,
    query: noQuery,
    body: warehouseMoveExample,
    response: (s) => operatorResources(s).movementResult,
    auth: manager,
    tags: ['operator'],
    status: 201,
    audit: 'warehouse.withdraw',
    refusals: [
      refusals.noOrganization,
      refusals.noCredit,
      refused(409, 'less than the amount of this credit is free in the warehouse (the rest is reserved or absent)'),
      refusals.accountCap,
    ],
  }),
  operatorTransfer: define({
    method: 'POST',
    path: '/operator/v1/transfers',
    summary: 'Move credits between accounts (inventories, buffer, adjustment, registry, wallets)',
    params: noParams,
    query: noQuery,
    body: inputs.transferCreditsInput.meta({
      examples: [
        { from: { kind: 'inventory', organizationId: EXAMPLE_UUID }, to: { kind: 'adjustment' }, creditId: EXAMPLE_CREDIT_ID, amount: 10 },
      ],
    }),
    response: (s) => operatorResources(s).movementResult,
    auth: manager,
    tags: ['operator'],
    status: 201,
    audit: 'credits.transfer',
    refusals: [
      refused(400, 'from and to are the same account (a wallet address in any letter case is one wallet)'),
      refused(400, 'from or to is a warehouse (use the warehouse deposits and withdrawals)'),
      refusals.noOrganization,
      refusals.noCredit,
      refusals.notEnough,
      refusals.accountCap,
    ],
  }),
  operatorCancel: define({
    method: 'POST',
    path: '/operator/v1/cancellations',
    summary: 'Cancel credits held in an account',
    params: noParams,
    query: noQuery,
    body: inputs.cancelCreditsInput.meta({
      examples: [{ from: { kind: 'adjustment' }, creditId: EXAMPLE_CREDIT_ID, amount: 10, reason: 'Double issuance corrected' }],
    }),
    response: (s) => operatorResources(s).movementResult,
    auth: manager,
    tags: ['operator'],
    status: 201,
    audit: 'credits.cancel',
    refusals: [
      refused(400, 'from is a warehouse (withdraw the credits first)'),
      refusals.noOrganization,
      refusals.noCredit,
      refusals.notEnough,
    ],
  }),
  operatorRetire: define({
    method: 'POST',
    path: '/operator/v1/retirements',
    summary: "Retire credits from an organization's inventory for a beneficiary",
    params: noParams,
    query: noQuery,
    body: inputs.retireFromInventoryInput.meta({
      examples: [
        {
          organizationId: EXAMPLE_UUID,
          creditId: EXAMPLE_CREDIT_ID,
          amount: 2.5,
          beneficiary: 'Acme Corp',
          reason: 'Offsetting 2024 business travel',
        },
      ],
    }),
    response: (s) => s.object({ retirementId: z.string() }),
    auth: manager,
    tags: ['operator'],
    status: 201,
    audit: 'credits.retire',
    refusals: [
      refusals.noOrganization,
      refusals.noCredit,
      refused(409, "the organization's inventory holds less than the amount of this credit"),
    ],
  }),
  operatorRecordOnchainRetirement: define({
    method: 'POST',
    path: '/operator/v1/onchain-retirements',
    summary: 'Record a retirement a wallet made on chain (unclaimed until the wallet finalizes it)',
    params: noParams,
    query: noQuery,
    body: inputs.recordOnchainRetirementInput.meta({
      examples: [{ walletAddress: '0x90Ccf5545F5f0EEb3Ca35b5a35040Eb756Ecc4f6', creditId: EXAMPLE_CREDIT_ID, amount: 1 }],
    }),
    response: (s) => s.object({ retirementId: z.string(), walletAddress: z.string(), projectAddress: z.string(), tokenId: z.string() }),
    auth: manager,
    tags: ['operator'],
    status: 201,
    audit: 'retirements.recordOnchain',
    refusals: [
      refusals.noCredit,
      refusals.noOrganization,
      refused(409, "the wallet (or, with fromOrganizationId, that organization's inventory) holds less than the amount of this credit"),
      refusals.accountCap,
    ],
  }),
} as const;
