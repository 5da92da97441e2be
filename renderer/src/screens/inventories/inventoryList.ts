// The inventory credit list: the account shown, each account's search (text, vintage and type
// filters, sort), and a cache of the pages of rows fetched so far. The virtualized table asks for
// the rows it is about to show; pages of INVENTORY_PAGE_SIZE rows are fetched with
// inventories.credits offset/limit, each page once. Past a lower-bound count ("10,000+") the list
// reaches on page by page (see listExtent). The state lives outside the screen, so coming back
// from a project keeps the list as it was.
import { create } from 'zustand';
import type { DeskInput, InventoryCreditRow, InventorySortField } from '../../../../shared/desk/api';
import { desk, describeError } from '../../lib/desk';
import { listExtent, pagesSpanning, rowInPages, type ListExtent } from '../../stores/paging';

export const INVENTORY_PAGE_SIZE = 100;

export type InventoryAccount = DeskInput<'inventories.get'>['account'];
// Listed here rather than imported from the contract, whose runtime module would bring zod into the page.
export const INVENTORY_ACCOUNTS: readonly InventoryAccount[] = ['buffer', 'adjustment', 'organization'];

export interface InventoryFilterValues {
  vintage?: string;
  type?: string;
}
export interface InventorySort {
  field: InventorySortField;
  direction: 'asc' | 'desc';
}
export interface InventoryQuery {
  text: string;
  filters: InventoryFilterValues;
  sort: InventorySort;
}

export const DEFAULT_INVENTORY_SORT: InventorySort = { field: 'project', direction: 'asc' };
const DEFAULT_QUERY: InventoryQuery = { text: '', filters: {}, sort: DEFAULT_INVENTORY_SORT };

interface InventoryListState {
  account: InventoryAccount;
  /** Each account's own search, kept while another account is shown. */
  queries: Record<InventoryAccount, InventoryQuery>;
  /** Bumped whenever what is listed changes, so late answers for an older list are dropped. */
  generation: number;
  /** Bumped only when the account or its query changes: the table scrolls back to the top then. */
  queryGeneration: number;
  total: number | null;
  totalIsLowerBound: boolean;
  extent: ListExtent;
  pages: Record<number, InventoryCreditRow[]>;
  requested: Record<number, true>;
  error: string | null;
  setAccount(account: InventoryAccount): void;
  setQuery(change: Partial<InventoryQuery>): void;
  setFilter(key: keyof InventoryFilterValues, value: string): void;
  /** Makes sure rows [first, last] are loaded or on their way. */
  ensureRows(first: number, last: number): void;
  /** Reloads the same list; with keepRows the rows on screen stay until their fresh copy arrives (after a sync). */
  refresh(options?: { keepRows: boolean }): void;
}

/** The search the desk expects for an account's query (the list and its CSV export share it). */
export function toSearch(account: InventoryAccount, query: InventoryQuery) {
  const filters = Object.fromEntries(Object.entries(query.filters).filter(([, v]) => v !== undefined && v !== '')) as InventoryFilterValues;
  return { account, query: query.text.trim(), filters, sort: query.sort };
}

export function inventoryRowAt(pages: Record<number, InventoryCreditRow[]>, index: number): InventoryCreditRow | undefined {
  return rowInPages(pages, INVENTORY_PAGE_SIZE, index);
}

export const currentQuery = (state: Pick<InventoryListState, 'account' | 'queries'>): InventoryQuery => state.queries[state.account];

export const useInventoryList = create<InventoryListState>()((set, get) => {
  async function loadPage(page: number) {
    const { generation, account } = get();
    set((s) => ({ requested: { ...s.requested, [page]: true } }));
    try {
      const result = await desk('inventories.credits', { ...toSearch(account, currentQuery(get())), offset: page * INVENTORY_PAGE_SIZE, limit: INVENTORY_PAGE_SIZE });
      if (get().generation !== generation) return;
      set((s) => {
        const pages = { ...s.pages, [page]: result.rows };
        const totalIsLowerBound = result.totalIsLowerBound === true;
        return { total: result.total, totalIsLowerBound, pages, extent: listExtent(result.total, totalIsLowerBound, pages, INVENTORY_PAGE_SIZE), error: null };
      });
    } catch (error) {
      if (get().generation !== generation) return;
      // Forget the request so scrolling back asks again.
      set((s) => {
        const requested = { ...s.requested };
        delete requested[page];
        const total = s.total ?? 0;
        return { requested, error: describeError(error), total, extent: listExtent(total, s.totalIsLowerBound, s.pages, INVENTORY_PAGE_SIZE) };
      });
    }
  }

  function restart(change: Partial<Pick<InventoryListState, 'account' | 'queries'>>) {
    set((s) => ({
      ...change,
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

  const withQuery = (query: InventoryQuery) => ({ queries: { ...get().queries, [get().account]: query } });

  return {
    account: 'buffer',
    queries: { buffer: DEFAULT_QUERY, adjustment: DEFAULT_QUERY, organization: DEFAULT_QUERY },
    generation: 0,
    queryGeneration: 0,
    total: null,
    totalIsLowerBound: false,
    extent: { rows: 0, exact: false },
    pages: {},
    requested: {},
    error: null,
    setAccount: (account) => {
      if (account !== get().account) restart({ account });
    },
    setQuery: (change) => restart(withQuery({ ...currentQuery(get()), ...change })),
    setFilter: (key, value) => {
      const filters = { ...currentQuery(get()).filters };
      if (value) filters[key] = value;
      else delete filters[key];
      restart(withQuery({ ...currentQuery(get()), filters }));
    },
    ensureRows: (first, last) => {
      const { requested, total, extent } = get();
      for (const page of pagesSpanning(first, last, total === null ? last + 1 : extent.rows, INVENTORY_PAGE_SIZE)) {
        if (!requested[page]) void loadPage(page);
      }
    },
    refresh: (options) => {
      if (!options?.keepRows || get().total === null) return restart({});
      // Same list, fresh data: forget which pages were fetched; the table asks again for the rows in view.
      set((s) => ({ generation: s.generation + 1, requested: {}, error: null }));
      void loadPage(0);
    },
  };
});
