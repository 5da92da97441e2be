// The project list: the applied search (text, scope, filters, sort) and a cache of the pages of
// rows fetched so far. The virtualized table asks for the rows it is about to show; pages of
// PAGE_SIZE rows are fetched with projects.search offset/limit, each page once. When the desk's
// count is a lower bound ("10,000+"), the list reaches on past it page by page (see listExtent).
import { create } from 'zustand';
import type { ProjectRow, ProjectSearchInput } from '../../../shared/desk/api';
import { desk, describeError } from '../lib/desk';
import { listExtent, pagesSpanning, rowInPages, type ListExtent } from './paging';
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

interface ProjectListState {
  query: ProjectQuery;
  /** Bumped whenever the query changes, so late answers for an older query are dropped. */
  generation: number;
  /** The generation `total` and `pages` were last answered for; behind `generation` while a reload is on its way. */
  loadedGeneration: number;
  /** The sync data version (useSync's dataVersion) the current generation reads. */
  dataVersion: number;
  total: number | null;
  /** The desk stopped counting at `total` (SEARCH_COUNT_LIMIT): there are more. */
  totalIsLowerBound: boolean;
  /** How far the table may scroll: `total`, or past a lower bound the rows read so far and a page more. */
  extent: ListExtent;
  pages: Record<number, ProjectRow[]>;
  requested: Record<number, true>;
  error: string | null;
  setQuery(change: Partial<ProjectQuery>): void;
  setFilter(key: keyof ProjectFilterValues, value: string): void;
  /** Makes sure rows [first, last] are loaded or on their way. */
  ensureRows(first: number, last: number): void;
  /** Reloads the same query; with keepRows the rows on screen stay until their fresh copy arrives (after a sync). */
  refresh(options?: { keepRows: boolean }): void;
  /** Bumped only when the query itself changes: the table scrolls back to the top then. */
  queryGeneration: number;
}

/** The search input the desk expects, from the list's query (used by the list and its CSV export). */
export function toSearchInput(query: ProjectQuery, offset = 0, limit = PROJECT_PAGE_SIZE): ProjectSearchInput {
  const filters = Object.fromEntries(Object.entries(query.filters).filter(([, v]) => v !== undefined && v !== '')) as ProjectSearchInput['filters'];
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
  async function loadPage(page: number) {
    const { generation, query } = get();
    set((s) => ({ requested: { ...s.requested, [page]: true } }));
    try {
      const result = await desk('projects.search', toSearchInput(query, page * PROJECT_PAGE_SIZE));
      if (get().generation !== generation) return;
      set((s) => {
        const pages = { ...s.pages, [page]: result.rows };
        const totalIsLowerBound = result.totalIsLowerBound === true;
        return { total: result.total, totalIsLowerBound, pages, extent: listExtent(result.total, totalIsLowerBound, pages, PROJECT_PAGE_SIZE), error: null, loadedGeneration: generation };
      });
    } catch (error) {
      if (get().generation !== generation) return;
      // Forget the request so scrolling back asks again.
      set((s) => {
        const requested = { ...s.requested };
        delete requested[page];
        const total = s.total ?? 0;
        return { requested, error: describeError(error), total, extent: listExtent(total, s.totalIsLowerBound, s.pages, PROJECT_PAGE_SIZE), loadedGeneration: generation };
      });
    }
  }

  function restart(query: ProjectQuery) {
    try {
      sessionStorage.setItem(QUERY_KEY, JSON.stringify(query));
    } catch {
      // Storage unavailable: the query is simply not kept across a reload.
    }
    set((s) => ({
      query,
      generation: s.generation + 1,
      dataVersion: useSync.getState().dataVersion,
      queryGeneration: s.queryGeneration + 1,
      total: null,
      totalIsLowerBound: false,
      extent: { rows: 0, exact: false },
      pages: {},
      requested: {},
      error: null,
    }));
    void loadPage(0);
  }

  return {
    query: savedQuery(),
    generation: 0,
    loadedGeneration: -1,
    dataVersion: 0,
    queryGeneration: 0,
    total: null,
    totalIsLowerBound: false,
    extent: { rows: 0, exact: false },
    pages: {},
    requested: {},
    error: null,
    setQuery: (change) => {
      const current = get().query;
      const next = { ...current, ...change };
      // Typing a search sorts by relevance when the list is in its default order (another order was
      // chosen on purpose and stays); clearing the search leaves relevance for the default order.
      if (change.text !== undefined && change.sort === undefined) {
        if (next.text.trim() && !current.text.trim() && current.sort.field === DEFAULT_PROJECT_SORT.field && current.sort.direction === DEFAULT_PROJECT_SORT.direction) next.sort = RELEVANCE_SORT;
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
    ensureRows: (first, last) => {
      const { requested, total, extent } = get();
      for (const page of pagesSpanning(first, last, total === null ? last + 1 : extent.rows, PROJECT_PAGE_SIZE)) {
        if (!requested[page]) void loadPage(page);
      }
    },
    refresh: (options) => {
      if (!options?.keepRows || get().total === null) return restart(get().query);
      // Same query, fresh data: forget which pages were fetched; the table asks again for the rows in view.
      set((s) => ({ generation: s.generation + 1, dataVersion: useSync.getState().dataVersion, requested: {}, error: null }));
      void loadPage(0);
    },
  };
});
