// The retirement list: search text, filters, sort, the rows loaded so far ("Show more" pages on),
// and the rows selected for a bulk certificate download.
import { create } from 'zustand';
import type { RetirementRow, RetirementSearchInput } from '../../../shared/desk/api';
import { desk, describeError } from '../lib/desk';
import { announce, setPageState } from '../lib/signals';

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

interface RetirementListState {
  query: RetirementQuery;
  generation: number;
  rows: RetirementRow[];
  total: number | null;
  loading: boolean;
  error: string | null;
  selected: Record<string, true>;
  setQuery(change: Partial<RetirementQuery>): void;
  loadMore(): Promise<void>;
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

export const useRetirementList = create<RetirementListState>()((set, get) => {
  async function load(offset: number) {
    const { generation, query } = get();
    set({ loading: true, error: null });
    try {
      const result = await desk('retirements.search', toRetirementSearch(query, offset));
      if (get().generation !== generation) return;
      set((s) => ({ rows: offset === 0 ? result.rows : [...s.rows, ...result.rows], total: result.total, loading: false }));
      if (offset === 0) {
        setPageState('retirementsQuery', query.text);
        setPageState('retirementsTotal', String(result.total));
        announce('desk:retirements-loaded', { query: query.text, total: result.total });
      }
    } catch (error) {
      if (get().generation !== generation) return;
      set({ loading: false, error: describeError(error) });
    }
  }
  function restart(query: RetirementQuery) {
    set((s) => ({ query, generation: s.generation + 1, rows: [], total: null }));
    void load(0);
  }
  return {
    query: { text: '', claimed: 'all', vintage: '', projectId: null, sort: { field: 'createdAt', direction: 'desc' } },
    generation: 0,
    rows: [],
    total: null,
    loading: false,
    error: null,
    selected: {},
    setQuery: (change) => restart({ ...get().query, ...change }),
    loadMore: () => load(get().rows.length),
    refresh: () => restart(get().query),
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
