// The pieces every resource of the registry service interface is made of: the object factory
// (strict or tolerant, see resources.ts), date-times, pages, and the short references one resource
// makes to another.
import { z } from 'zod';

export type ObjectFactory = typeof z.strictObject;

/** ISO 8601 date-time with an offset or Z, as the registry writes them. */
export const isoDateTime = z.iso.datetime({ offset: true });

/** Pagination, and the organization, project and document references resources embed. */
export function commonSchemas(object: ObjectFactory) {
  const pagination = object({
    total: z.number().int().nonnegative(),
    currentPage: z.number().int().nonnegative(),
    pageCount: z.number().int().nonnegative(),
    nextPage: z.number().int().nonnegative().nullable(),
    prevPage: z.number().int().nonnegative().nullable(),
  });

  const organizationSummary = object({
    fullName: z.string(),
    logo: z.string(),
    id: z.string(),
    publicUrl: z.string(),
  });

  const projectReference = object({
    id: z.string(),
    fullName: z.string(),
    url: z.string(),
    publicUrl: z.string(),
    num: z.string(),
  });

  const document = object({
    id: z.string(),
    uri: z.string(),
    type: z.string(),
    name: z.string(),
    isPublic: z.boolean(),
  });

  return { pagination, organizationSummary, projectReference, document };
}

export type CommonSchemas = ReturnType<typeof commonSchemas>;
