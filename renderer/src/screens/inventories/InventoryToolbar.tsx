// Search as you type (applied 150 ms after the last key, or at once on Enter) and the vintage and
// type filters, with the values (and counts) the account holds.
import { useCallback } from 'react';
import { desk } from '@renderer/lib/desk';
import { useLoader, useSearchText } from '@renderer/lib/hooks';
import { creditTypeLabel } from '@renderer/lib/format';
import { useSync } from '@renderer/stores/sync';
import { FacetFilters } from '@renderer/components/FacetFilters';
import type { FacetValue } from '@shared/desk/api';
import { MOD_LABEL } from '@renderer/components/Sidebar';
import { currentQuery, toSearch, useInventoryList, type InventoryAccount, type InventoryFilterValues } from './inventoryList';

function SearchBox() {
  const text = useInventoryList((s) => currentQuery(s).text);
  const setQuery = useInventoryList((s) => s.setQuery);
  const apply = useCallback((next: string) => setQuery({ text: next }), [setQuery]);
  // Each account's panel is its own (keyed by account), so the box starts with that account's search.
  const [typed, setTyped] = useSearchText(text, () => currentQuery(useInventoryList.getState()).text, apply);
  return (
    <input
      type="search"
      className="search-input"
      aria-label="Search credits"
      placeholder={`Search by project, project number or serialization…  (${MOD_LABEL}F)`}
      value={typed}
      data-search-field
      aria-keyshortcuts="Control+F"
      onChange={(event) => setTyped(event.target.value)}
      onKeyDown={(event) => {
        if (event.key === 'Enter' && typed !== currentQuery(useInventoryList.getState()).text) setQuery({ text: typed });
      }}
    />
  );
}

const FILTERS: Array<{ key: keyof InventoryFilterValues; facet: 'vintages' | 'types'; label: string; all: string }> = [
  { key: 'vintage', facet: 'vintages', label: 'Vintage', all: 'Any vintage' },
  { key: 'type', facet: 'types', label: 'Type', all: 'Any type' },
];

function Filters({ account }: { account: InventoryAccount }) {
  const selected = useInventoryList((s) => currentQuery(s).filters);
  const setFilter = useInventoryList((s) => s.setFilter);
  const setQuery = useInventoryList((s) => s.setQuery);
  const text = useInventoryList((s) => currentQuery(s).text);
  const dataVersion = useSync((s) => s.dataVersion);
  // Counted under the search and the other filters; a new search keeps the menus on screen while they recount.
  const facets = useLoader(
    () => {
      const search = toSearch(account, currentQuery(useInventoryList.getState()));
      return desk('inventories.facets', { account, query: search.query, filters: search.filters });
    },
    [account],
    `${dataVersion}|${text}|${JSON.stringify(selected)}`,
  );
  const filters = FILTERS.map(({ key, facet, label, all }) => ({
    key,
    label,
    all,
    values: facets.data?.[facet],
    describe: (v: FacetValue) => (key === 'type' ? creditTypeLabel(v.label) : v.label),
  }));
  return (
    <FacetFilters
      filters={filters}
      selected={selected}
      loaded={facets.data !== null}
      error={facets.error}
      onChange={setFilter}
      narrowed={text.trim() !== ''}
      onClear={() => setQuery({ filters: {}, text: '' })}
      onRetry={facets.reload}
    />
  );
}

export function InventoryToolbar({ account }: { account: InventoryAccount }) {
  return (
    <div className="inventory-toolbar" role="search">
      <SearchBox />
      <Filters account={account} />
    </div>
  );
}
