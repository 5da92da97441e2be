// The retirement list: search text, filters, sort, a cache of the pages of rows fetched so far (the
// virtualized table asks for the rows it is about to show; pages of RETIREMENT_PAGE_SIZE rows are
// fetched with retirements.search offset/limit, each page once; past a lower-bound count the list
// reaches on page by page), and the rows selected for a bulk certificate download.
import { create } from 'zustand';
import type { RetirementRow, RetirementSearchInput } from '../../../shared/desk/api';
import { desk, describeError } from '../lib/desk';
import { announce, setPageState } from '../lib/signals';
import { listExtent, pagesSpanning, rowInPages, type ListExtent } from './paging';

export const RETIREMENT_PAGE_SIZE = 100;

export type ClaimFilter = 'all' | 'claimed' | 'unclaimed';
export type RetirementSortField = 'relevance' | 'createdAt' | 'amount' | 'beneficiary' | 'project';

export interface RetirementQuery {
  text: string;
  claimed: ClaimFilter;
  vintage: string;
  projectId: string | null;
  sort: { field: RetirementSortField; direction: 'asc' | 'desc' };
}

/** The list's default order (newest first); typing a search switches it to relevance. */
export const DEFAULT_RETIREMENT_SORT: RetirementQuery['sort'] = { field: 'createdAt', direction: 'desc' };
export const RETIREMENT_RELEVANCE_SORT: RetirementQuery['sort'] = { field: 'relevance', direction: 'desc' };

interface RetirementListState {
  query: RetirementQuery;
  /** Bumped whenever the query changes or the list reloads, so late answers for an older one are dropped. */
  generation: number;
  /** Bumped only when the query itself changes: the table scrolls back to the top then. */
  queryGeneration: number;
  total: number | null;
  /** The desk stopped counting at `total` (SEARCH_COUNT_LIMIT): there are more. */
  totalIsLowerBound: boolean;
  /** How far the table may scroll: `total`, or past a lower bound the rows read so far and a page more. */
  extent: ListExtent;
  pages: Record<number, RetirementRow[]>;
  requested: Record<number, true>;
  error: string | null;
  selected: Record<string, true>;
  setQuery(change: Partial<RetirementQuery>): void;
  /** Makes sure rows [first, last] are loaded or on their way. */
  ensureRows(first: number, last: number): void;
  /** Reloads the same query; the rows on screen stay until their fresh copy arrives. */
  refresh(): void;
  toggleSelected(id: string): void;
  clearSelection(): void;
}

export function toRetirementSearch(query: RetirementQuery, offset = 0, limit = RETIREMENT_PAGE_SIZE): RetirementSearchInput {
  const filters: NonNullable<RetirementSearchInput['filters']> = {};
  if (query.claimed !== 'all') filters.claimed = query.claimed === 'claimed';
  if (/^\d{4}$/.test(query.vintage)) filters.vintage = query.vintage;
  if (query.projectId) filters.projectId = query.projectId;
  return { query: query.text.trim(), filters, sort: query.sort, offset, limit };
}

export function retirementAt(state: Pick<RetirementListState, 'pages'>, index: number): RetirementRow | undefined {
  return rowInPages(state.pages, RETIREMENT_PAGE_SIZE, index);
}

/** A row already read, by id (for naming a selected retirement whose row is scrolled away). */
export function findRetirementRow(state: Pick<RetirementListState, 'pages'>, id: string): RetirementRow | undefined {
  for (const page of Object.values(state.pages)) {
    const row = page.find((r) => r.id === id);
    if (row) return row;
  }
  return undefined;
}

export const useRetirementList = create<RetirementListState>()((set, get) => {
  async function loadPage(page: number) {
    const { generation, query } = get();
    set((s) => ({ requested: { ...s.requested, [page]: true } }));
    try {
      const result = await desk('retirements.search', toRetirementSearch(query, page * RETIREMENT_PAGE_SIZE));
      if (get().generation !== generation) return;
      const totalIsLowerBound = result.totalIsLowerBound === true;
      set((s) => {
        const pages = { ...s.pages, [page]: result.rows };
        return { total: result.total, totalIsLowerBound, pages, extent: listExtent(result.total, totalIsLowerBound, pages, RETIREMENT_PAGE_SIZE), error: null };
      });
      if (page === 0) {
        setPageState('retirementsQuery', query.text);
        setPageState('retirementsTotal', String(result.total));
        setPageState('retirementsTotalIsLowerBound', String(totalIsLowerBound));
        announce('desk:retirements-loaded', { query: query.text, total: result.total, totalIsLowerBound });
      }
    } catch (error) {
      if (get().generation !== generation) return;
      // Forget the request so scrolling back asks again.
      set((s) => {
        const requested = { ...s.requested };
        delete requested[page];
        const total = s.total ?? 0;
        return { requested, error: describeError(error), total, extent: listExtent(total, s.totalIsLowerBound, s.pages, RETIREMENT_PAGE_SIZE) };
      });
    }
  }

  function restart(query: RetirementQuery) {
    set((s) => ({
      query,
      generation: s.generation + 1,
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
    query: { text: '', claimed: 'all', vintage: '', projectId: null, sort: DEFAULT_RETIREMENT_SORT },
    generation: 0,
    queryGeneration: 0,
    total: null,
    totalIsLowerBound: false,
    extent: { rows: 0, exact: false },
    pages: {},
    requested: {},
    error: null,
    selected: {},
    setQuery: (change) => {
      const current = get().query;
      const next = { ...current, ...change };
      // As on the project list: typing a search sorts by relevance when the list is in its default
      // order; clearing the search leaves relevance for the default order.
      if (change.text !== undefined && change.sort === undefined) {
        const isDefault = current.sort.field === DEFAULT_RETIREMENT_SORT.field && current.sort.direction === DEFAULT_RETIREMENT_SORT.direction;
        if (next.text.trim() && !current.text.trim() && isDefault) next.sort = RETIREMENT_RELEVANCE_SORT;
        if (!next.text.trim() && current.sort.field === 'relevance') next.sort = DEFAULT_RETIREMENT_SORT;
      }
      restart(next);
    },
    ensureRows: (first, last) => {
      const { requested, total, extent } = get();
      for (const page of pagesSpanning(first, last, total === null ? last + 1 : extent.rows, RETIREMENT_PAGE_SIZE)) {
        if (!requested[page]) void loadPage(page);
      }
    },
    refresh: () => {
      if (get().total === null) return restart(get().query);
      // Same query, fresh data (a sync, a finished reservation): forget which pages were fetched;
      // the table asks again for the rows in view.
      set((s) => ({ generation: s.generation + 1, requested: {}, error: null }));
      void loadPage(0);
    },
    toggleSelected: (id) =>
      set((s) => {
        const selected = { ...s.selected };
        if (selected[id]) delete selected[id];
        else selected[id] = true;
        return { selected };
      }),
    clearSelection: () => set({ selected: {} }),
  };
});
