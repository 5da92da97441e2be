// What the warehouse credits' list shows of the credits read: the search, filters and sort the user
// chose, the facets under them, and the selection, kept to what is listed.
import { useMemo, useState } from 'react';
import type { WarehouseInventoryCredit } from '@shared/registry/resources';
import {
  DEFAULT_WAREHOUSE_QUERY,
  listWarehouseCredits,
  warehouseFacets,
  type WarehouseCreditQuery,
  type WarehouseFilterKey,
} from '@shared/desk/warehouse-list';
import { EMPTY_SELECTION, keepListed, type RangeSelection } from '@renderer/lib/rangeSelection';

export function useWarehouseCreditList(credits: WarehouseInventoryCredit[]) {
  const [query, setQuery] = useState<WarehouseCreditQuery>(DEFAULT_WAREHOUSE_QUERY);
  const [rawSelection, setSelection] = useState<RangeSelection>(EMPTY_SELECTION);
  const listed = useMemo(() => listWarehouseCredits(credits, query), [credits, query]);
  const facets = useMemo(() => warehouseFacets(credits, query), [credits, query]);
  const order = useMemo(() => listed.map((c) => c.id), [listed]);
  // Only what is listed stays selected (after a search, a filter or fresh data).
  const selection = keepListed(rawSelection, order);
  const chosen = listed.filter((c) => selection.selected.has(c.id));
  const reservable = chosen.filter((c) => c.amount > 0);
  const narrowed = query.query.trim() !== '' || Object.values(query.filters).some(Boolean);
  const setFilter = (key: WarehouseFilterKey, value: string) =>
    setQuery((q) => ({ ...q, filters: { ...q.filters, [key]: value || undefined } }));
  return { query, setQuery, setFilter, narrowed, listed, facets, order, selection, setSelection, reservable };
}
