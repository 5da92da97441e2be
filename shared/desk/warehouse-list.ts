// The warehouse inventory as a list: searched, filtered by vintage and type, sorted, counted and
// totalled the way the inventories list is. The warehouse is read live and whole (reservations count
// down in minutes), so the list is narrowed where it is shown; the renderer and the CSV export share
// these functions, so the file holds exactly the rows on screen.
import { z } from 'zod';
import type { WarehouseInventoryCredit } from '../registry/resources';
import { tonnesToGrams } from '../registry/amounts';

export const WAREHOUSE_SORT_FIELDS = ['project', 'serialization', 'vintage', 'type', 'amount'] as const;
export type WarehouseSortField = (typeof WAREHOUSE_SORT_FIELDS)[number];

export const warehouseCreditQuery = z.object({
  query: z.string().max(200).default(''),
  filters: z
    .object({
      vintage: z
        .string()
        .regex(/^\d{4}$/)
        .optional(),
      type: z.string().trim().min(1).max(40).optional(),
    })
    .default({}),
  sort: z
    .object({ field: z.enum(WAREHOUSE_SORT_FIELDS).default('project'), direction: z.enum(['asc', 'desc']).default('asc') })
    .default({ field: 'project', direction: 'asc' }),
});
export type WarehouseCreditQuery = z.output<typeof warehouseCreditQuery>;
export type WarehouseFilterKey = keyof WarehouseCreditQuery['filters'];

export const DEFAULT_WAREHOUSE_QUERY: WarehouseCreditQuery = { query: '', filters: {}, sort: { field: 'project', direction: 'asc' } };

/**
 * A credit's vintage: the registry's `vintage` when it sends one, else the year its serialization
 * carries (the interface says a serialization contains the vintage year; ours ends with it).
 */
export function creditVintage(credit: WarehouseInventoryCredit & { vintage?: unknown }): string {
  if (typeof credit.vintage === 'string' && /^\d{4}$/.test(credit.vintage)) return credit.vintage;
  const parts = credit.serialization.split('-');
  for (let i = parts.length - 1; i >= 0; i--) if (/^\d{4}$/.test(parts[i]!)) return parts[i]!;
  return '';
}

function matchesText(credit: WarehouseInventoryCredit, text: string): boolean {
  const words = text.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const haystack = `${credit.project.fullName} ${credit.project.num} ${credit.serialization}`.toLowerCase();
  return words.every((word) => haystack.includes(word));
}

function matchesFilters(credit: WarehouseInventoryCredit, filters: WarehouseCreditQuery['filters'], except?: WarehouseFilterKey): boolean {
  if (except !== 'vintage' && filters.vintage && creditVintage(credit) !== filters.vintage) return false;
  if (except !== 'type' && filters.type && credit.type !== filters.type) return false;
  return true;
}

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

function compareBy(field: WarehouseSortField, a: WarehouseInventoryCredit, b: WarehouseInventoryCredit): number {
  switch (field) {
    case 'project':
      return collator.compare(a.project.fullName, b.project.fullName);
    case 'serialization':
      return collator.compare(a.serialization, b.serialization);
    case 'vintage':
      return creditVintage(a).localeCompare(creditVintage(b));
    case 'type':
      return a.type.localeCompare(b.type);
    case 'amount':
      return a.amount - b.amount;
  }
}

/** The credits the query lists, in its order (ties by serialization, then id: one stable order). */
export function listWarehouseCredits<C extends WarehouseInventoryCredit>(credits: readonly C[], query: WarehouseCreditQuery): C[] {
  const sign = query.sort.direction === 'asc' ? 1 : -1;
  return credits
    .filter((c) => matchesText(c, query.query) && matchesFilters(c, query.filters))
    .sort(
      (a, b) => sign * compareBy(query.sort.field, a, b) || collator.compare(a.serialization, b.serialization) || a.id.localeCompare(b.id),
    );
}

export interface WarehouseFacetValue {
  value: string;
  count: number;
}

/**
 * Each filter's values with how many credits choosing it would list: the search and the OTHER
 * filters apply (so a count is always the number of rows that value shows), its own does not.
 */
export function warehouseFacets(
  credits: readonly WarehouseInventoryCredit[],
  query: WarehouseCreditQuery,
): Record<'vintages' | 'types', WarehouseFacetValue[]> {
  const count = (key: WarehouseFilterKey, valueOf: (c: WarehouseInventoryCredit) => string) => {
    const counts = new Map<string, number>();
    for (const c of credits) {
      if (!matchesText(c, query.query) || !matchesFilters(c, query.filters, key)) continue;
      const value = valueOf(c);
      if (value) counts.set(value, (counts.get(value) ?? 0) + 1);
    }
    // The chosen value stays a choice even when nothing matches it any more.
    const chosen = query.filters[key];
    if (chosen && !counts.has(chosen)) counts.set(chosen, 0);
    return [...counts].map(([value, n]) => ({ value, count: n }));
  };
  return {
    vintages: count('vintage', creditVintage).sort((a, b) => b.value.localeCompare(a.value)),
    types: count('type', (c) => c.type).sort((a, b) => a.value.localeCompare(b.value)),
  };
}

/** Total grams of the listed credits' amounts (exact: summed as integers). */
export function totalGrams(credits: readonly WarehouseInventoryCredit[]): number {
  return credits.reduce((sum, c) => sum + tonnesToGrams(c.amount), 0);
}
