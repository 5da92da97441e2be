// Filters on status, country, sector, methodology, type and vintage, with the values (and counts)
// the desk knows for the current scope.
import { desk } from '../../lib/desk';
import { useLoader } from '../../lib/hooks';
import { useProjectList, type ProjectFilterValues } from '../../stores/projects';
import { useSync } from '../../stores/sync';
import { countryName, formatCount, humanize } from '../../lib/format';
import { ErrorMessage } from '../../components/feedback';

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
  const filters = useProjectList((s) => s.query.filters);
  const setFilter = useProjectList((s) => s.setFilter);
  const setQuery = useProjectList((s) => s.setQuery);
  const dataVersion = useSync((s) => s.dataVersion);
  const facets = useLoader(() => desk('projects.facets', { scope }), [scope], dataVersion);
  const anyFilter = Object.values(filters).some(Boolean);

  return (
    <div className="filters" aria-label="Filters" role="group">
      {FILTERS.map(({ key, facet, label, all }) => (
        <label key={key} className="filter">
          <span>{label}</span>
          <select value={filters[key] ?? ''} onChange={(event) => setFilter(key, event.target.value)} disabled={!facets.data && !filters[key]}>
            <option value="">{all}</option>
            {(facets.data?.[facet] ?? []).map((v) => (
              <option key={v.value} value={v.value}>
                {`${optionLabel(facet, v.value, v.label)} (${formatCount(v.count)})`}
              </option>
            ))}
          </select>
        </label>
      ))}
      {anyFilter && (
        <button type="button" className="button-link" onClick={() => setQuery({ filters: {} })}>
          Clear filters
        </button>
      )}
      <ErrorMessage error={facets.error ? `Filter values could not be loaded: ${(facets.error as Error).message}` : null} onRetry={facets.reload} />
    </div>
  );
}
