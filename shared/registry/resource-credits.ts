// The credit resources of the registry service interface: a project's credit summary and events,
// and an organization's inventory.
import { z } from 'zod';
import { isoDateTime, type CommonSchemas, type ObjectFactory } from './resource-common';

/** Credit summaries, credit events and inventory credits; `common` gives the project reference. */
export function creditSchemas(object: ObjectFactory, { projectReference }: CommonSchemas) {
  const creditSummary = object({
    exPost: z.number(),
    exPostCancelled: z.number(),
    exAnte: z.number(),
    exAnteCancelled: z.number(),
    retired: z.number(),
    validated: z.number(),
  });

  const inventorySummary = object({ exPost: z.number(), exAnte: z.number(), retired: z.number() });

  const creditEvent = object({
    id: z.string(),
    vintage: z.string(),
    createdAt: isoDateTime,
    amount: z.number(),
    type: z.string(),
    creditType: z.string(),
    monitoringPeriodStart: isoDateTime,
    monitoringPeriodEnd: isoDateTime,
    files: z.array(object({ fileName: z.string(), id: z.string(), size: z.number(), url: z.string(), type: z.string() })),
    verificationBody: object({ id: z.string(), directoryUrl: z.string(), fullName: z.string() }),
  });

  const inventoryCredit = object({
    organizationId: z.string(),
    id: z.string(),
    tokenId: z.string(),
    tokenAddress: z.string(),
    project: projectReference,
    serialization: z.string(),
    vintage: z.string(),
    supply: z.number(),
    unit: z.string(),
    amount: z.number(),
    type: z.string(),
  });

  return { creditSummary, inventorySummary, creditEvent, inventoryCredit };
}
