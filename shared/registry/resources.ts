// Zod schemas for every resource of section 2 of the registry service interface, with the exact
// field names of the contract. They are built twice from one definition:
//   - `strict`   rejects unknown fields: the server's own tests parse every answer with it, so the
//                registry can never drift from the contract unnoticed;
//   - `tolerant` accepts (and drops) unknown fields: the desk's client uses it, so a newer registry
//                that adds fields does not break an older desk.
// Each group of resources is built in its own module (resource-*.ts) by a builder that takes the
// object factory, so one definition serves both.
import { z } from 'zod';
import { commonSchemas, type ObjectFactory } from './resource-common';
import { creditSchemas } from './resource-credits';
import { organizationSchemas } from './resource-organizations';
import { projectSchemas } from './resource-projects';
import { retirementSchemas } from './resource-retirements';
import { warehouseSchemas } from './resource-warehouse';

export { isoDateTime } from './resource-common';

function buildResourceSchemas(object: ObjectFactory) {
  const common = commonSchemas(object);
  const errorBody = object({
    statusCode: z.number().int(),
    message: z.union([z.string(), z.array(z.string())]),
    error: z.string(),
  });

  return {
    /** The object factory these schemas were built with, for envelopes built around them. */
    object,
    ...common,
    ...projectSchemas(object, common),
    ...creditSchemas(object, common),
    ...retirementSchemas(object, common),
    ...warehouseSchemas(object, common),
    ...organizationSchemas(object),
    errorBody,
  };
}

export const strict = buildResourceSchemas(z.strictObject);
export const tolerant = buildResourceSchemas(z.object);
export type ResourceSchemas = typeof strict;

export type Pagination = z.infer<typeof strict.pagination>;
export type OrganizationSummary = z.infer<typeof strict.organizationSummary>;
export type ProjectReference = z.infer<typeof strict.projectReference>;
export type Document = z.infer<typeof strict.document>;
export type ProjectEvent = z.infer<typeof strict.projectEvent>;
export type Project = z.infer<typeof strict.project>;
export type InternalProject = z.infer<typeof strict.internalProject>;
export type CreditSummary = z.infer<typeof strict.creditSummary>;
export type InventorySummary = z.infer<typeof strict.inventorySummary>;
export type CreditEvent = z.infer<typeof strict.creditEvent>;
export type InventoryCredit = z.infer<typeof strict.inventoryCredit>;
export type FullRetirement = z.infer<typeof strict.fullRetirement>;
export type RedactedRetirement = z.infer<typeof strict.redactedRetirement>;
export type Retirement = z.infer<typeof strict.retirement>;
export type WarehouseInventoryCredit = z.infer<typeof strict.warehouseInventoryCredit>;
export type Reservation = z.infer<typeof strict.reservation>;
export type Organization = z.infer<typeof strict.organization>;
export type Installation = z.infer<typeof strict.installation>;
export type AccessToken = z.infer<typeof strict.accessToken>;
export type ErrorBody = z.infer<typeof strict.errorBody>;
