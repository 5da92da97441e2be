// Filters on status, country, sector, methodology, type and vintage, with the values (and counts)
// the desk knows for the current scope.
import { desk } from '../../lib/desk';
import { useLoader } from '../../lib/hooks';
import { useProjectList, type ProjectFilterValues } from '../../stores/projects';
import { useSync } from '../../stores/sync';
import { countryName, humanize } from '../../lib/format';
import { FacetFilters } from '../../components/FacetFilters';
import type { FacetValue } from '../../../../shared/desk/api';

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

export function ProjectFilters() {
  const scope = useProjectList((s) => s.query.scope);
  const selected = useProjectList((s) => s.query.filters);
  const setFilter = useProjectList((s) => s.setFilter);
  const setQuery = useProjectList((s) => s.setQuery);
  const dataVersion = useSync((s) => s.dataVersion);
  const facets = useLoader(() => desk('projects.facets', { scope }), [scope], dataVersion);
  const filters = FILTERS.map(({ key, facet, label, all }) => ({
    key,
    label,
    all,
    values: facets.data?.[facet],
    describe: (v: FacetValue) => optionLabel(facet, v.value, v.label),
  }));
  return (
    <FacetFilters
      filters={filters}
      selected={selected}
      loaded={facets.data !== null}
      error={facets.error}
      onChange={setFilter}
      onClear={() => setQuery({ filters: {} })}
      onRetry={facets.reload}
    />
  );
}
