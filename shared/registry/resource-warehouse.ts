// The warehouse resources of the registry service interface: what an organization's warehouse holds
// of a credit, and a reservation of it.
import { z } from 'zod';
import { isoDateTime, type CommonSchemas, type ObjectFactory } from './resource-common';

/** Warehouse inventory credits and reservations; `common` gives the project reference. */
export function warehouseSchemas(object: ObjectFactory, { projectReference }: CommonSchemas) {
  const warehouseInventoryCredit = object({
    id: z.string(),
    inventoryId: z.string(),
    organizationId: z.string(),
    project: projectReference,
    serialization: z.string(),
    /** Available now: what a new reservation may take (held − reserved). */
    amount: z.number(),
    // Beyond 2.11 (docs/api.md, Warehouse): what the warehouse holds and what reservations hold of it.
    // Optional so the desk still reads registries that do not send them.
    held: z.number().nonnegative().optional(),
    reserved: z.number().nonnegative().optional(),
    type: z.string(),
  });

  const reservation = object({
    id: z.string(),
    creditId: z.string(),
    serialization: z.string(),
    amount: z.number(),
    createdAt: isoDateTime,
    state: z.string(),
    retirementId: z.string().nullable(),
    updatedAt: isoDateTime,
    tokenId: z.string(),
    tokenAddress: z.string(),
    type: z.string(),
    reservedToDate: isoDateTime,
    isComplete: z.boolean(),
    project: projectReference,
    reserver: object({ id: z.string(), name: z.string() }),
  });

  return { warehouseInventoryCredit, reservation };
}
