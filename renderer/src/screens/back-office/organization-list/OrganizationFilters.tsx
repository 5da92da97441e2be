// The organization list's search (by name or id) and filters (verified, public, type, country).
import { ORGANIZATION_TYPES } from '@shared/registry/vocabulary';
import { AnySelect } from '@renderer/components/AnySelect';
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
        <AnySelect
          label="Type"
          value={filter.type}
          options={ORGANIZATION_TYPES.map((t) => [t, humanize(t)] as const)}
          onChange={(value) => filterBy('type', value)}
        />
        <AnySelect
          label="Country"
          value={filter.country}
          options={countries.map((c) => [c, countryName(c)] as const)}
          onChange={(value) => filterBy('country', value)}
        />
      </div>
    </>
  );
}
