// Filters on status, country, sector, methodology, type and vintage, with the values the desk knows
// for the current scope, each counted under the search and the other filters. Countries are listed
// by name; the other menus as the desk orders them (most projects first).
import { desk } from '@renderer/lib/desk';
import { useLoader } from '@renderer/lib/hooks';
import { toSearchInput, useProjectList, type ProjectFilterValues } from '@renderer/stores/projects';
import { useSync } from '@renderer/stores/sync';
import { compareNames, countryName, humanize } from '@renderer/lib/format';
import { FacetFilters } from '@renderer/components/FacetFilters';
import type { FacetValue } from '@shared/desk/api';

type FacetKey = 'statuses' | 'countries' | 'sectors' | 'methodologies' | 'types' | 'vintages';

const FILTERS: Array<{ key: keyof ProjectFilterValues; facet: FacetKey; label: string; all: string }> = [
  { key: 'status', facet: 'statuses', label: 'Status', all: 'Any status' },
  { key: 'countryCode', facet: 'countries', label: 'Country', all: 'Any country' },
  { key: 'sectorId', facet: 'sectors', label: 'Sector', all: 'Any sector' },
  { key: 'methodologyId', facet: 'methodologies', label: 'Methodology', all: 'Any methodology' },
  { key: 'typeId', facet: 'types', label: 'Type', all: 'Any type' },
  { key: 'vintage', facet: 'vintages', label: 'Vintage', all: 'Any vintage' },
];

function optionLabel(facet: FacetKey, value: string, label: string): string {
  // The list shows country names from the code (Intl), so the filter names them the same way.
  if (facet === 'countries') return countryName(value);
  if (facet === 'statuses') return humanize(label || value);
  return label || value;
}

/** Countries are looked for by name: listed by the name shown, in the locale's order, not by count or code. */
function countriesByName(values: readonly FacetValue[] | undefined): FacetValue[] | undefined {
  return values && [...values].sort((a, b) => compareNames(countryName(a.value), countryName(b.value)));
}

export function ProjectFilters() {
  const scope = useProjectList((s) => s.query.scope);
  const selected = useProjectList((s) => s.query.filters);
  const setFilter = useProjectList((s) => s.setFilter);
  const setQuery = useProjectList((s) => s.setQuery);
  const text = useProjectList((s) => s.query.text);
  const dataVersion = useSync((s) => s.dataVersion);
  // Counted under the search and the other filters; a new search keeps the menus on screen while they recount.
  const facets = useLoader(
    () => {
      const search = toSearchInput(useProjectList.getState().query);
      return desk('projects.facets', { scope, query: search.query, filters: search.filters });
    },
    [scope],
    `${dataVersion}|${text}|${JSON.stringify(selected)}`,
  );
  const filters = FILTERS.map(({ key, facet, label, all }) => ({
    key,
    label,
    all,
    values: facet === 'countries' ? countriesByName(facets.data?.countries) : facets.data?.[facet],
    describe: (v: FacetValue) => optionLabel(facet, v.value, v.label),
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
