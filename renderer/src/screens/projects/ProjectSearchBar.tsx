// Search as you type (applied 150 ms after the last key, or at once on Enter), the public/internal
// scope and the sort order.
import { useCallback } from 'react';
import { useSearchText } from '../../lib/hooks';
import { useProjectList, type ProjectSortField } from '../../stores/projects';
import { MOD_LABEL } from '../../components/Sidebar';

const SORT_FIELDS: Array<{ value: ProjectSortField; label: string }> = [
  { value: 'relevance', label: 'Relevance' },
  { value: 'num', label: 'Project number' },
  { value: 'name', label: 'Name' },
  { value: 'status', label: 'Status' },
  { value: 'country', label: 'Country' },
  { value: 'startDate', label: 'Start date' },
];

export function ProjectSearchBar() {
  const query = useProjectList((s) => s.query);
  const setQuery = useProjectList((s) => s.setQuery);
  const apply = useCallback((text: string) => setQuery({ text }), [setQuery]);
  const [text, setText] = useSearchText(query.text, () => useProjectList.getState().query.text, apply);

  return (
    <div className="toolbar" role="search">
      <input
        type="search"
        className="search-input"
        aria-label="Search projects"
        placeholder={`Search projects by name, number, proponent…  (${MOD_LABEL}F)`}
        value={text}
        data-search-field
        aria-keyshortcuts="Control+F"
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && text !== useProjectList.getState().query.text) setQuery({ text });
        }}
      />
      <fieldset className="segmented">
        <legend className="visually-hidden">Scope</legend>
        {(['public', 'internal'] as const).map((scope) => (
          <label key={scope} className={query.scope === scope ? 'segment segment-on' : 'segment'}>
            <input type="radio" name="project-scope" value={scope} checked={query.scope === scope} onChange={() => setQuery({ scope })} />
            {scope === 'public' ? 'Public' : 'Internal'}
          </label>
        ))}
      </fieldset>
      <label className="inline-field">
        <span>Sort by</span>
        <select value={query.sort.field} onChange={(event) => setQuery({ sort: { ...query.sort, field: event.target.value as ProjectSortField } })}>
          {SORT_FIELDS.filter((f) => f.value !== 'relevance' || query.text.trim()).map((f) => (
            <option key={f.value} value={f.value}>
              {f.label}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        className="button button-small"
        aria-label={query.sort.direction === 'asc' ? 'Sort ascending (switch to descending)' : 'Sort descending (switch to ascending)'}
        onClick={() => setQuery({ sort: { ...query.sort, direction: query.sort.direction === 'asc' ? 'desc' : 'asc' } })}
      >
        {query.sort.direction === 'asc' ? '↑ Asc' : '↓ Desc'}
      </button>
    </div>
  );
}
