// The retirement resources of the registry service interface: a claimed retirement in full, and
// the redacted form the others are shown in.
import { z } from 'zod';
import { isoDateTime, type CommonSchemas, type ObjectFactory } from './resource-common';

/** Full and redacted retirements, and either; `common` gives the references they embed. */
export function retirementSchemas(object: ObjectFactory, { organizationSummary, projectReference }: CommonSchemas) {
  const fullRetirement = object({
    createdAt: isoDateTime,
    id: z.string(),
    isClaimed: z.literal(true),
    reason: z.string(),
    comment: z.string(),
    beneficiary: z.string(),
    organizationId: z.string(),
    organizationOwner: organizationSummary,
    serialization: z.string(),
    vintage: z.string(),
    amount: z.number(),
    project: projectReference,
  });

  // Unclaimed retirements, and those of organizations without business verification, show only
  // these fields (compatibility.md, Retirements).
  const redactedRetirement = object({
    id: z.string(),
    isClaimed: z.boolean(),
    createdAt: isoDateTime,
    amount: z.number(),
    project: projectReference,
  });

  const retirement = z.union([fullRetirement, redactedRetirement]);

  return { fullRetirement, redactedRetirement, retirement };
}
