// The retirement list: search text, filters, sort, a cache of the pages of rows fetched so far (the
// virtualized table asks for the rows it is about to show; pages of RETIREMENT_PAGE_SIZE rows are
// fetched with retirements.search offset/limit, each page once; past a lower-bound count the list
// reaches on page by page), and the rows selected for a bulk certificate download.
import { create } from 'zustand';
import type { RetirementRow, RetirementSearchInput } from '@shared/desk/api';
import { desk } from '../lib/desk';
import { announce, setPageState } from '../lib/signals';
import { emptyPagedRows, pagedRowsActions, type PagedRows } from './pagedRows';
import { rowInPages } from './paging';
import { useSync } from './sync';
import { clickRow } from '../lib/rangeSelection';

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

interface RetirementListState extends PagedRows<RetirementRow> {
  query: RetirementQuery;
  selected: Record<string, true>;
  setQuery(change: Partial<RetirementQuery>): void;
  /** Makes sure rows [first, last] are loaded or on their way. */
  ensureRows(first: number, last: number): void;
  /** Reloads the same query (a sync, a finished reservation); the rows on screen stay until their fresh copy arrives. */
  refresh(): void;
  toggleSelected(id: string): void;
  /** A click on a row's checkbox: with shift, the rows from the last clicked one take its new state. */
  clickSelected(id: string, shiftKey: boolean): void;
  /** Selects every claimed retirement listed (up to SELECT_ALL_LIMIT); with any selected, clears them. */
  selectAll(): Promise<void>;
  /** Where a shift-click range starts. */
  selectionAnchor: string | null;
  /** Unticks `ids` (certificates saved), leaving any other tick as it is. */
  deselect(ids: string[]): void;
}

/** The most retirements "select all" takes (their certificates are then fetched one by one). */
export const SELECT_ALL_LIMIT = 500;

/** The claimed rows read so far, in list order (ranges and select-all span these). */
export function claimedRowIds(state: Pick<RetirementListState, 'pages'>): string[] {
  return Object.entries(state.pages)
    .sort(([a], [b]) => Number(a) - Number(b))
    .flatMap(([, rows]) => rows.filter((r) => r.isClaimed).map((r) => r.id));
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
  const rows = pagedRowsActions<RetirementListState, RetirementRow>(set, get, {
    pageSize: RETIREMENT_PAGE_SIZE,
    fetchPage: (state, offset, limit) => desk('retirements.search', toRetirementSearch(state.query, offset, limit)),
    currentDataVersion: () => useSync.getState().dataVersion,
    onPageLoaded: (state, page, answer) => {
      if (page !== 0) return;
      const totalIsLowerBound = answer.totalIsLowerBound === true;
      setPageState('retirementsQuery', state.query.text);
      setPageState('retirementsTotal', String(answer.total));
      setPageState('retirementsTotalIsLowerBound', String(totalIsLowerBound));
      setPageState('retirementsDataVersion', String(state.dataVersion));
      announce('desk:retirements-loaded', {
        query: state.query.text,
        total: answer.total,
        totalIsLowerBound,
        dataVersion: state.dataVersion,
      });
    },
  });

  return {
    ...emptyPagedRows<RetirementRow>(),
    query: { text: '', claimed: 'all', vintage: '', projectId: null, sort: DEFAULT_RETIREMENT_SORT },
    selected: {},
    setQuery: (change) => {
      const current = get().query;
      const next = { ...current, ...change };
      // As on the project list: typing a search sorts by relevance when the list is in its default
      // order; clearing the search leaves relevance for the default order.
      if (change.text !== undefined && change.sort === undefined) {
        const isDefault =
          current.sort.field === DEFAULT_RETIREMENT_SORT.field && current.sort.direction === DEFAULT_RETIREMENT_SORT.direction;
        if (next.text.trim() && !current.text.trim() && isDefault) next.sort = RETIREMENT_RELEVANCE_SORT;
        if (!next.text.trim() && current.sort.field === 'relevance') next.sort = DEFAULT_RETIREMENT_SORT;
      }
      rows.restart({ query: next });
    },
    ensureRows: rows.ensureRows,
    refresh: () => rows.reload({ keepRows: true }),
    toggleSelected: (id) =>
      set((s) => {
        const selected = { ...s.selected };
        if (selected[id]) delete selected[id];
        else selected[id] = true;
        return { selected };
      }),
    selectionAnchor: null,
    clickSelected: (id, shiftKey) =>
      set((s) => {
        const next = clickRow({ selected: new Set(Object.keys(s.selected)), anchor: s.selectionAnchor }, claimedRowIds(s), id, shiftKey);
        return { selected: Object.fromEntries([...next.selected].map((key) => [key, true as const])), selectionAnchor: next.anchor };
      }),
    selectAll: async () => {
      const state = get();
      // Like a mail list's header checkbox: with anything selected it clears.
      if (Object.keys(state.selected).length > 0) {
        set({ selected: {}, selectionAnchor: null });
        return;
      }
      const answer = await desk('retirements.search', toRetirementSearch(state.query, 0, SELECT_ALL_LIMIT));
      set({ selected: Object.fromEntries(answer.rows.filter((r) => r.isClaimed).map((r) => [r.id, true as const])) });
    },
    deselect: (ids) =>
      set((s) => {
        const selected = { ...s.selected };
        for (const id of ids) delete selected[id];
        return { selected, selectionAnchor: s.selectionAnchor !== null && ids.includes(s.selectionAnchor) ? null : s.selectionAnchor };
      }),
  };
});
