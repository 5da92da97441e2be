// Organizations and apps as the operator interface shows them: an organization with its accounts,
// projects and app installations, and an app with its installations.
import { z } from 'zod';
import { isoDateTime, type ObjectFactory } from './resource-common';
import type { LedgerResources } from './operator-resource-ledger';
import { PROJECT_STATUSES } from './vocabulary';

/** Organizations, apps and installations; `ledger` gives the accounts an organization holds. */
export function organizationResources(object: ObjectFactory, { account }: LedgerResources) {
  const installation = object({
    id: z.string(),
    appId: z.string(),
    appName: z.string(),
    organizationId: z.string(),
    status: z.enum(['active', 'suspended']),
    permissions: z.record(z.string(), z.string()),
    createdAt: isoDateTime,
  });
  const projectSummary = object({ id: z.string(), num: z.string(), fullName: z.string(), status: z.enum(PROJECT_STATUSES) });
  const organization = object({
    id: z.string(),
    fullName: z.string(),
    type: z.string(),
    countryCode: z.string(),
    city: z.string(),
    zip: z.string(),
    physicalAddress: z.string(),
    registrationNumber: z.string(),
    website: z.string(),
    logo: z.string(),
    organizationIndustries: object({ code: z.string(), name: z.string() }),
    isPublic: z.boolean(),
    isVerified: z.boolean(),
    isRegistry: z.boolean(),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
    accounts: z.array(account),
    projects: z.array(projectSummary),
    installations: z.array(installation),
  });
  const app = object({
    id: z.string(),
    name: z.string(),
    nameId: z.string(),
    examinerRead: z.boolean(),
    createdAt: isoDateTime,
    installations: z.array(installation),
  });
  return { organization, app, installation };
}
