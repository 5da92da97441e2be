// The inventory credit list: the account shown, each account's search (text, vintage and type
// filters, sort), and a cache of the pages of rows fetched so far. The virtualized table asks for
// the rows it is about to show; pages of INVENTORY_PAGE_SIZE rows are fetched with
// inventories.credits offset/limit, each page once. Past a lower-bound count ("10,000+") the list
// reaches on page by page (see listExtent). The state lives outside the screen, so coming back
// from a project keeps the list as it was.
import { create } from 'zustand';
import type { DeskInput, InventoryCreditRow, InventorySortField } from '@shared/desk/api';
import { desk } from '@renderer/lib/desk';
import { emptyPagedRows, pagedRowsActions, type PagedRows } from '@renderer/stores/pagedRows';
import { rowInPages } from '@renderer/stores/paging';
import { useSync } from '@renderer/stores/sync';

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

interface InventoryListState extends PagedRows<InventoryCreditRow> {
  account: InventoryAccount;
  /** Each account's own search, kept while another account is shown. */
  queries: Record<InventoryAccount, InventoryQuery>;
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
  const rows = pagedRowsActions<InventoryListState, InventoryCreditRow>(set, get, {
    pageSize: INVENTORY_PAGE_SIZE,
    fetchPage: (state, offset, limit) => desk('inventories.credits', { ...toSearch(state.account, currentQuery(state)), offset, limit }),
    currentDataVersion: () => useSync.getState().dataVersion,
  });

  const withQuery = (query: InventoryQuery) => ({ queries: { ...get().queries, [get().account]: query } });

  return {
    ...emptyPagedRows<InventoryCreditRow>(),
    account: 'buffer',
    queries: { buffer: DEFAULT_QUERY, adjustment: DEFAULT_QUERY, organization: DEFAULT_QUERY },
    setAccount: (account) => {
      if (account !== get().account) rows.restart({ account });
    },
    setQuery: (change) => rows.restart(withQuery({ ...currentQuery(get()), ...change })),
    setFilter: (key, value) => {
      const filters = { ...currentQuery(get()).filters };
      if (value) filters[key] = value;
      else delete filters[key];
      rows.restart(withQuery({ ...currentQuery(get()), filters }));
    },
    ensureRows: rows.ensureRows,
    refresh: rows.reload,
  };
});
