// The project list: the applied search (text, scope, filters, sort) and a cache of the pages of
// rows fetched so far. The virtualized table asks for the rows it is about to show; pages of
// PAGE_SIZE rows are fetched with projects.search offset/limit, each page once. When the desk's
// count is a lower bound ("10,000+"), the list reaches on past it page by page (see listExtent).
import { create } from 'zustand';
import type { ProjectRow, ProjectSearchInput } from '@shared/desk/api';
import { desk } from '../lib/desk';
import { emptyPagedRows, pagedRowsActions, type PagedRows } from './pagedRows';
import { rowInPages } from './paging';
import { useSync } from './sync';

export const PROJECT_PAGE_SIZE = 100;

export type ProjectScope = 'public' | 'internal';
export type ProjectSortField = 'relevance' | 'num' | 'name' | 'status' | 'country' | 'startDate';
export interface ProjectFilterValues {
  status?: string;
  countryCode?: string;
  sectorId?: string;
  methodologyId?: string;
  typeId?: string;
  vintage?: string;
}
export interface ProjectQuery {
  text: string;
  scope: ProjectScope;
  filters: ProjectFilterValues;
  sort: { field: ProjectSortField; direction: 'asc' | 'desc' };
}

interface ProjectListState extends PagedRows<ProjectRow> {
  query: ProjectQuery;
  setQuery(change: Partial<ProjectQuery>): void;
  setFilter(key: keyof ProjectFilterValues, value: string): void;
  /** Makes sure rows [first, last] are loaded or on their way. */
  ensureRows(first: number, last: number): void;
  /** Reloads the same query; with keepRows the rows on screen stay until their fresh copy arrives (after a sync). */
  refresh(options?: { keepRows: boolean }): void;
}

/** The search input the desk expects, from the list's query (used by the list and its CSV export). */
export function toSearchInput(query: ProjectQuery, offset = 0, limit = PROJECT_PAGE_SIZE): ProjectSearchInput {
  const filters = Object.fromEntries(
    Object.entries(query.filters).filter(([, v]) => v !== undefined && v !== ''),
  ) as ProjectSearchInput['filters'];
  return { query: query.text.trim(), scope: query.scope, filters, sort: query.sort, offset, limit };
}

export function rowAt(state: Pick<ProjectListState, 'pages'>, index: number): ProjectRow | undefined {
  return rowInPages(state.pages, PROJECT_PAGE_SIZE, index);
}

/** The list's default order (project number); typing a search switches it to relevance. */
export const DEFAULT_PROJECT_SORT: ProjectQuery['sort'] = { field: 'num', direction: 'asc' };
export const RELEVANCE_SORT: ProjectQuery['sort'] = { field: 'relevance', direction: 'asc' };

// The list's query (scope, filters, sort, text) survives a reload of the window, like a desk app's
// view state; sessionStorage, so it does not outlive the session.
const QUERY_KEY = 'registryDesk.projectQuery';
const DEFAULT_QUERY: ProjectQuery = { text: '', scope: 'public', filters: {}, sort: DEFAULT_PROJECT_SORT };

function savedQuery(): ProjectQuery {
  try {
    const saved = JSON.parse(sessionStorage.getItem(QUERY_KEY) ?? 'null') as Partial<ProjectQuery> | null;
    return saved ? { ...DEFAULT_QUERY, ...saved } : DEFAULT_QUERY;
  } catch {
    return DEFAULT_QUERY;
  }
}

export const useProjectList = create<ProjectListState>()((set, get) => {
  const rows = pagedRowsActions<ProjectListState, ProjectRow>(set, get, {
    pageSize: PROJECT_PAGE_SIZE,
    fetchPage: (state, offset, limit) => desk('projects.search', toSearchInput(state.query, offset, limit)),
    currentDataVersion: () => useSync.getState().dataVersion,
  });

  function restart(query: ProjectQuery) {
    try {
      sessionStorage.setItem(QUERY_KEY, JSON.stringify(query));
    } catch {
      // Storage unavailable: the query is simply not kept across a reload.
    }
    rows.restart({ query });
  }

  return {
    ...emptyPagedRows<ProjectRow>(),
    query: savedQuery(),
    setQuery: (change) => {
      const current = get().query;
      const next = { ...current, ...change };
      // Typing a search sorts by relevance when the list is in its default order (another order was
      // chosen on purpose and stays); clearing the search leaves relevance for the default order.
      if (change.text !== undefined && change.sort === undefined) {
        if (
          next.text.trim() &&
          !current.text.trim() &&
          current.sort.field === DEFAULT_PROJECT_SORT.field &&
          current.sort.direction === DEFAULT_PROJECT_SORT.direction
        )
          next.sort = RELEVANCE_SORT;
        if (!next.text.trim() && current.sort.field === 'relevance') next.sort = DEFAULT_PROJECT_SORT;
      }
      restart(next);
    },
    setFilter: (key, value) => {
      const filters = { ...get().query.filters };
      if (value) filters[key] = value;
      else delete filters[key];
      restart({ ...get().query, filters });
    },
    ensureRows: rows.ensureRows,
    refresh: rows.reload,
  };
});
