// The organization list's search (by name or id) and filters (verified, public, type, country).
import { ORGANIZATION_TYPES } from '@shared/registry/vocabulary';
import { countryName, humanize } from '@renderer/lib/format';
import type { OrganizationList } from './useOrganizationList';
import { YesNoFilter } from './YesNoFilter';

export function OrganizationFilters({ list }: { list: OrganizationList }) {
  const { query, setQuery, filter, filterBy, countries } = list;
  return (
    <>
      <div className="toolbar">
        <input
          type="search"
          className="search-input"
          placeholder="Search organizations by name or id"
          aria-label="Search organizations"
          data-search-field
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
      </div>
      <div className="filters" role="group" aria-label="Filters">
        <YesNoFilter label="Verified" value={filter.verified} onChange={(value) => filterBy('verified', value)} />
        <YesNoFilter label="Public" value={filter.isPublic} onChange={(value) => filterBy('isPublic', value)} />
        <label className="filter">
          <span>Type</span>
          <select value={filter.type} onChange={(e) => filterBy('type', e.target.value)}>
            <option value="">Any</option>
            {ORGANIZATION_TYPES.map((t) => (
              <option key={t} value={t}>
                {humanize(t)}
              </option>
            ))}
          </select>
        </label>
        <label className="filter">
          <span>Country</span>
          <select value={filter.country} onChange={(e) => filterBy('country', e.target.value)}>
            <option value="">Any</option>
            {countries.map((c) => (
              <option key={c} value={c}>
                {countryName(c)}
              </option>
            ))}
          </select>
        </label>
      </div>
    </>
  );
}
