// The desk API's lists: the searches, rows and facets of projects, retirements and inventories,
// files the desk hands out, the CSV export's input and the warehouse view (api.ts re-exports them all).
import { z } from 'zod';
import { auditFilter } from './audit-filter';
import { tolerant } from '../registry/resources';
import { PROJECT_STATUSES } from '../registry/vocabulary';
import { freshness, id, isoTime } from './field-schemas';
import { warehouseCreditQuery } from './warehouse-list';

const paging = { offset: z.number().int().min(0).default(0), limit: z.number().int().min(1).max(500).default(100) };
const sortDirection = z.enum(['asc', 'desc']).default('asc');

export const projectFilters = z.object({
  status: z.enum(PROJECT_STATUSES).optional(),
  countryCode: z.string().length(2).optional(),
  sectorId: z.string().optional(),
  methodologyId: z.string().optional(),
  typeId: z.string().optional(),
  vintage: z
    .string()
    .regex(/^\d{4}$/)
    .optional(),
});

export const projectSearchInput = z.object({
  query: z.string().max(200).default(''),
  scope: z.enum(['public', 'internal']).default('public'),
  filters: projectFilters.default({}),
  sort: z
    .object({ field: z.enum(['relevance', 'num', 'name', 'status', 'country', 'startDate']).default('num'), direction: sortDirection })
    .default({ field: 'num', direction: 'asc' }),
  ...paging,
});
export type ProjectSearchInput = z.input<typeof projectSearchInput>;

/** One row of the project list: the fields the list shows and filters on. */
export const projectRow = z.object({
  id: z.string(),
  num: z.string(),
  fullName: z.string(),
  shortDescription: z.string(),
  status: z.string(),
  countryCode: z.string().nullable(),
  sector: z.string(),
  methodology: z.string(),
  type: z.string(),
  proponents: z.string(),
  startDate: isoTime,
  isPublic: z.boolean(),
});
export type ProjectRow = z.infer<typeof projectRow>;

export const facetValue = z.object({ value: z.string(), label: z.string(), count: z.number().int() });
export type FacetValue = z.infer<typeof facetValue>;
export const projectFacets = z.object({
  statuses: z.array(facetValue),
  countries: z.array(facetValue),
  sectors: z.array(facetValue),
  methodologies: z.array(facetValue),
  types: z.array(facetValue),
  vintages: z.array(facetValue),
});

export const retirementFilters = z.object({
  claimed: z.boolean().optional(),
  vintage: z
    .string()
    .regex(/^\d{4}$/)
    .optional(),
  projectId: z.string().optional(),
});

export const retirementSearchInput = z.object({
  query: z.string().max(200).default(''),
  filters: retirementFilters.default({}),
  sort: z
    .object({
      field: z.enum(['relevance', 'createdAt', 'amount', 'beneficiary', 'project']).default('createdAt'),
      direction: z.enum(['asc', 'desc']).default('desc'),
    })
    .default({ field: 'createdAt', direction: 'desc' }),
  ...paging,
});
export type RetirementSearchInput = z.input<typeof retirementSearchInput>;

export const retirementRow = z.object({
  id: z.string(),
  createdAt: isoTime,
  isClaimed: z.boolean(),
  amount: z.number(),
  beneficiary: z.string().nullable(),
  reason: z.string().nullable(),
  organizationName: z.string().nullable(),
  projectId: z.string(),
  projectName: z.string(),
  projectNum: z.string(),
  serialization: z.string().nullable(),
  vintage: z.string().nullable(),
});
export type RetirementRow = z.infer<typeof retirementRow>;

/**
 * Set when a search matched more rows than the cache counts exactly (SEARCH_COUNT_LIMIT): `total`
 * is then that limit, a lower bound ("10,000+"); more pages can still be read past it.
 */
export const totalIsLowerBound = z.boolean().optional();
export const SEARCH_COUNT_LIMIT = 10_000;

export const INVENTORY_ACCOUNTS = ['buffer', 'adjustment', 'organization'] as const;
export const inventoryAccount = z.enum(INVENTORY_ACCOUNTS);
export type InventoryAccount = z.infer<typeof inventoryAccount>;

/** An account's summary and holder; its credits are read page by page with inventories.credits. */
export const inventoryView = z.object({
  summary: tolerant.inventorySummary,
  organization: tolerant.organizationSummary,
  /** How many credits the account holds (the registry's answer as last synced). */
  creditCount: z.number().int().nonnegative(),
});

export const INVENTORY_SORT_FIELDS = ['project', 'serialization', 'vintage', 'type', 'amount', 'supply'] as const;
export type InventorySortField = (typeof INVENTORY_SORT_FIELDS)[number];

export const inventoryCreditFilters = z.object({
  vintage: z
    .string()
    .regex(/^\d{4}$/)
    .optional(),
  /** A credit type as the registry names it (exPost, exAnte). */
  type: z.string().trim().min(1).max(40).optional(),
  projectId: id.optional(),
});

/** What narrows and orders an account's credit list: the list and its CSV export share it. */
const inventoryCreditQuery = {
  query: z.string().max(200).default(''),
  filters: inventoryCreditFilters.default({}),
  sort: z
    .object({ field: z.enum(INVENTORY_SORT_FIELDS).default('project'), direction: sortDirection })
    .default({ field: 'project', direction: 'asc' }),
};

export const inventoryCreditSearchInput = z.object({ account: inventoryAccount, ...inventoryCreditQuery, ...paging });
export type InventoryCreditSearchInput = z.input<typeof inventoryCreditSearchInput>;

/** One credit of an account's list: the columns the list shows, filters and sorts on. */
export const inventoryCreditRow = z.object({
  id: z.string(),
  projectId: z.string(),
  projectName: z.string(),
  projectNum: z.string(),
  serialization: z.string(),
  vintage: z.string(),
  type: z.string(),
  amount: z.number(),
  supply: z.number(),
  unit: z.string(),
  tokenId: z.string(),
  tokenAddress: z.string(),
});
export type InventoryCreditRow = z.infer<typeof inventoryCreditRow>;

export const inventoryFacets = z.object({ vintages: z.array(facetValue), types: z.array(facetValue) });
export type InventoryFacets = z.infer<typeof inventoryFacets>;

export const projectCredits = z.object({
  summary: tolerant.creditSummary,
  vintages: z.array(z.object({ events: z.array(tolerant.creditEvent), vintage: z.string(), summary: tolerant.creditSummary })),
  project: tolerant.projectReference,
});

/**
 * A file the desk produced (a certificate, a CSV export), kept by the host: the renderer gets only
 * this handle and asks the bridge to save it (native save dialog in Electron, a download in the
 * browser). The desk chose the name; the kind fixes the extension.
 */
export const FILE_KINDS = ['pdf', 'csv', 'zip', 'json'] as const;
export type FileKind = (typeof FILE_KINDS)[number];
export const fileHandleId = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'must be a file handle from the desk');
export const fileHandle = z.object({ handle: fileHandleId, kind: z.enum(FILE_KINDS), filename: z.string(), size: z.number().int() });
export type FileHandle = z.infer<typeof fileHandle>;

export const csvExportInput = z.discriminatedUnion('list', [
  z.object({ list: z.literal('projects'), search: projectSearchInput }),
  z.object({ list: z.literal('retirements'), search: retirementSearchInput }),
  // The account's list as shown: its search text, filters and sort (every row, not one page).
  z.object({ list: z.literal('inventory'), account: inventoryAccount, ...inventoryCreditQuery }),
  // The warehouse inventory as listed: its search, filters and sort (shared/desk/warehouse-list.ts).
  z.object({ list: z.literal('warehouse'), organizationId: id, ...warehouseCreditQuery.shape }),
  // The back office's audit log with the screen's filters (every entry, newest first).
  z.object({ list: z.literal('audit'), filter: auditFilter }),
]);

export const warehouseView = z.object({
  organizationId: z.string(),
  organizationName: z.string(),
  canWrite: z.boolean(),
  credits: z.array(tolerant.warehouseInventoryCredit),
  reservations: z.array(tolerant.reservation),
  /** registry clock − desk clock, in ms, measured from the registry's Date header; countdowns use it. */
  clockOffsetMs: z.number(),
  ...freshness,
});
export type WarehouseView = z.infer<typeof warehouseView>;
