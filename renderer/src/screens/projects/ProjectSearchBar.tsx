// Search as you type (applied 150 ms after the last key, or at once on Enter), the public/internal
// scope and, while a search is typed, sorting by relevance (the columns sort from their headers).
import { useCallback } from 'react';
import { useSearchText } from '@renderer/lib/hooks';
import { DEFAULT_PROJECT_SORT, RELEVANCE_SORT, useProjectList } from '@renderer/stores/projects';
import { MOD_LABEL } from '@renderer/components/Sidebar';
import { RelevanceToggle } from '@renderer/components/SortControls';

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
      <RelevanceToggle
        active={query.sort.field === 'relevance'}
        available={query.text.trim() !== ''}
        onChange={(relevance) => setQuery({ sort: relevance ? RELEVANCE_SORT : DEFAULT_PROJECT_SORT })}
      />
    </div>
  );
}
