// The retirements list's toolbar: its search, filters and export, and the vintage filter.
import { useCallback } from 'react';
import { useLoader, useSearchText } from '@renderer/lib/hooks';
import { desk } from '@renderer/lib/desk';
import { useSync } from '@renderer/stores/sync';
import { formatCount } from '@renderer/lib/format';
import {
  DEFAULT_RETIREMENT_SORT,
  RETIREMENT_RELEVANCE_SORT,
  toRetirementSearch,
  useRetirementList,
  type ClaimFilter,
} from '@renderer/stores/retirements';
import { MOD_LABEL } from '@renderer/components/Sidebar';
import { RelevanceToggle } from '@renderer/components/SortControls';

export function RetirementToolbar() {
  const query = useRetirementList((s) => s.query);
  const setQuery = useRetirementList((s) => s.setQuery);
  const apply = useCallback((text: string) => setQuery({ text }), [setQuery]);
  const [text, setText] = useSearchText(query.text, () => useRetirementList.getState().query.text, apply);
  return (
    <div className="toolbar" role="search">
      <input
        type="search"
        className="search-input"
        aria-label="Search retirements"
        placeholder={`Search by beneficiary, project, serialization…  (${MOD_LABEL}F)`}
        value={text}
        data-search-field
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && text !== useRetirementList.getState().query.text) setQuery({ text });
        }}
      />
      <label className="inline-field">
        <span>Claim</span>
        <select value={query.claimed} onChange={(e) => setQuery({ claimed: e.target.value as ClaimFilter })}>
          <option value="all">All</option>
          <option value="claimed">Claimed</option>
          <option value="unclaimed">Unclaimed</option>
        </select>
      </label>
      <VintageFilter />
      <RelevanceToggle
        active={query.sort.field === 'relevance'}
        available={query.text.trim() !== ''}
        onChange={(relevance) => setQuery({ sort: relevance ? RETIREMENT_RELEVANCE_SORT : DEFAULT_RETIREMENT_SORT })}
      />
      {query.projectId && (
        <button type="button" className="button-link" onClick={() => setQuery({ projectId: null })}>
          Show all projects
        </button>
      )}
      {(query.text.trim() !== '' || query.claimed !== 'all' || query.vintage !== '') && (
        <button type="button" className="button-link" onClick={() => setQuery({ text: '', claimed: 'all', vintage: '' })}>
          Clear filters
        </button>
      )}
    </div>
  );
}

/** The vintages the retirements have (not free text), each counted under the search and the other filters. */
function VintageFilter() {
  const query = useRetirementList((s) => s.query);
  const setQuery = useRetirementList((s) => s.setQuery);
  const dataVersion = useSync((s) => s.dataVersion);
  const search = toRetirementSearch(query);
  const facets = useLoader(
    () => {
      const current = toRetirementSearch(useRetirementList.getState().query);
      return desk('retirements.facets', { query: current.query, filters: current.filters });
    },
    [],
    `${dataVersion}|${search.query}|${JSON.stringify(search.filters)}`,
  );
  return (
    <label className="inline-field">
      <span>Vintage</span>
      <select value={query.vintage} onChange={(e) => setQuery({ vintage: e.target.value })} disabled={!facets.data && !query.vintage}>
        <option value="">Any vintage</option>
        {(facets.data?.vintages ?? []).map((v) => (
          <option key={v.value} value={v.value}>
            {`${v.label} (${formatCount(v.count)})`}
          </option>
        ))}
      </select>
    </label>
  );
}
