// The organization resources of the registry service interface: an organization, an app's
// installation in it, and the access tokens the installation is given.
import { z } from 'zod';
import { isoDateTime, type ObjectFactory } from './resource-common';

/** Organizations, installations and access tokens. */
export function organizationSchemas(object: ObjectFactory) {
  const organization = object({
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
    fullName: z.string(),
    countryCode: z.string(),
    city: z.string(),
    zip: z.string(),
    physicalAddress: z.string(),
    registrationNumber: z.string(),
    website: z.string(),
    logo: z.string(),
    id: z.string(),
    organizationIndustries: object({ code: z.string(), name: z.string() }),
    type: z.string(),
    isPublic: z.boolean(),
    url: z.string(),
  });

  const installation = object({
    id: z.string(),
    appId: z.string(),
    appNameId: z.string(),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
    permissions: z.record(z.string(), z.string()),
    organization,
    accessTokensUrl: z.string(),
  });

  const accessToken = object({
    id: z.string(),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
    token: z.string(),
    expiresAt: isoDateTime,
    isActive: z.boolean(),
    permissions: z.record(z.string(), z.string()),
    appId: z.string(),
  });

  return { organization, installation, accessToken };
}
