// Zod schemas for every resource of section 2 of the registry service interface, with the exact
// field names of the contract. They are built twice from one definition:
//   - `strict`   rejects unknown fields: the server's own tests parse every answer with it, so the
//                registry can never drift from the contract unnoticed;
//   - `tolerant` accepts (and drops) unknown fields: the desk's client uses it, so a newer registry
//                that adds fields does not break an older desk.
import { z } from 'zod';

type ObjectFactory = typeof z.strictObject;

/** ISO 8601 date-time with an offset or Z, as the registry writes them. */
export const isoDateTime = z.iso.datetime({ offset: true });

function buildResourceSchemas(object: ObjectFactory) {
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

  const idTitle = object({ id: z.string(), title: z.string() });

  const projectEvent = object({
    id: z.string(),
    type: z.string(),
    createdAt: isoDateTime,
    projectStatus: z.string(),
    previousProjectStatus: z.string(),
  });

  const project = object({
    id: z.string(),
    num: z.string().regex(/^\d+$/),
    fullName: z.string(),
    description: z.string(),
    shortDescription: z.string(),
    publicUrl: z.string(),
    registry: z.string(),
    status: z.string(),
    startDate: isoDateTime,
    creditingPeriodStartDate: isoDateTime,
    estimatedAnnualMitigations: z.array(z.string().nullable()),
    city: z.string().optional(),
    thumbnail: z.string().optional(),
    countryCode: z.string().length(2).optional(),
    state: z.string().optional(),
    sector: idTitle,
    otherBenefits: z.array(object({ title: z.string(), checked: z.boolean(), id: z.number(), description: z.string() })),
    proponents: z.array(organizationSummary),
    validators: z.array(organizationSummary),
    methodology: idTitle,
    type: object({ id: z.string(), title: z.string(), description: z.string() }),
    location: object({ lat: z.number(), lng: z.number() }).optional(),
    kmlFile: document.optional(),
    documentation: z.array(document),
  });

  const internalProject = project.extend({ events: z.array(projectEvent) });

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

  const errorBody = object({
    statusCode: z.number().int(),
    message: z.union([z.string(), z.array(z.string())]),
    error: z.string(),
  });

  return {
    /** The object factory these schemas were built with, for envelopes built around them. */
    object,
    pagination,
    organizationSummary,
    projectReference,
    document,
    projectEvent,
    project,
    internalProject,
    creditSummary,
    inventorySummary,
    creditEvent,
    inventoryCredit,
    fullRetirement,
    redactedRetirement,
    retirement,
    warehouseInventoryCredit,
    reservation,
    organization,
    installation,
    accessToken,
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
