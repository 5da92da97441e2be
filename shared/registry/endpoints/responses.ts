// Answer shapes used by more than one area: the credit and inventory answers reappear in the
// changes feed exactly as their own endpoints give them.
import { z } from 'zod';
import type { ResourceSchemas } from '../resources';
import { FEED_INVENTORY_ACCOUNTS, FEED_ITEM_TYPES } from '../vocabulary';

export function inventoryResponse(s: ResourceSchemas) {
  return s.object({ summary: s.inventorySummary, organization: s.organizationSummary, credits: z.array(s.inventoryCredit) });
}

export function warehouseInventoryResponse(s: ResourceSchemas) {
  return s.object({ credits: z.array(s.warehouseInventoryCredit), organizationId: z.string() });
}

export function projectCreditsResponse(s: ResourceSchemas) {
  return s.object({
    summary: s.creditSummary,
    vintages: z.array(s.object({ events: z.array(s.creditEvent), vintage: z.string(), summary: s.creditSummary })),
    project: s.projectReference,
  });
}

/**
 * One changed resource in the feed, in the exact shape its own endpoint answers: `project` as a row
 * of GET /projects, `internalProject` as GET /projects/internal/{id}'s `project`, `projectCredits`
 * as GET /carbonCredits/projects/{id}, `retirement` as a row of GET /v1/retirements, `inventory` as
 * GET /carbonCredits/icr/inventory/{account}, `warehouse` as the warehouse inventory with every
 * reservation (newest first), `organization` as GET /v1/organizations/{id}'s `organization`.
 */
export function feedItem(s: ResourceSchemas) {
  return z.discriminatedUnion('type', [
    s.object({ type: z.literal('project'), project: s.project }),
    s.object({ type: z.literal('internalProject'), project: s.internalProject }),
    s.object({ type: z.literal('projectCredits'), id: z.string(), credits: projectCreditsResponse(s) }),
    s.object({ type: z.literal('retirement'), retirement: s.retirement }),
    s.object({ type: z.literal('inventory'), account: z.enum(FEED_INVENTORY_ACCOUNTS), inventory: inventoryResponse(s) }),
    s.object({
      type: z.literal('warehouse'),
      organizationId: z.string(),
      inventory: warehouseInventoryResponse(s),
      reservations: z.array(s.reservation),
    }),
    s.object({ type: z.literal('organization'), organization: s.organization }),
  ]);
}

export function changesResponse(s: ResourceSchemas) {
  return s.object({
    changes: z.array(feedItem(s)),
    /** What left the caller's view (deleted, or no longer visible to it) since the cursor; never in a snapshot. */
    removed: z.array(s.object({ type: z.enum(FEED_ITEM_TYPES), id: z.string() })),
    /** Where the next request starts; with `more` false the caller is up to date. */
    cursor: z.string().meta({ description: 'Opaque: where the next request starts; pass it back unchanged as the cursor parameter' }),
    more: z.boolean(),
  });
}
