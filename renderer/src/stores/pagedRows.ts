// The part of a paged, virtualized list's store that is the same for every list (projects,
// retirements, inventory credits): pages of rows fetched once each as the table asks for them, the
// count and how far the list reaches, late answers for an older list dropped, and the difference
// between a new query (empty, back to the top) and fresh data for the same one (the rows on screen
// stay until their fresh copy arrives). Each list's store keeps its own query and how to ask for a page.
import { describeError } from '../lib/desk';
import { listExtent, pagesSpanning, type ListExtent } from './paging';

export interface PageAnswer<Row> {
  rows: Row[];
  total: number;
  /** The desk stopped counting at `total`: there are more. */
  totalIsLowerBound?: boolean;
}

export interface PagedRows<Row> {
  /** Bumped whenever what is listed is asked for anew, so late answers for an older list are dropped. */
  generation: number;
  /** The generation `total` and `pages` were last answered for; behind `generation` while a reload is on its way. */
  loadedGeneration: number;
  /** Bumped only when the query itself changes: the table scrolls back to the top then. */
  queryGeneration: number;
  /** The data version (see the sync store) the current generation reads. */
  dataVersion: number;
  total: number | null;
  /** The desk stopped counting at `total` (SEARCH_COUNT_LIMIT): there are more. */
  totalIsLowerBound: boolean;
  /** How far the table may scroll: `total`, or past a lower bound the rows read so far and a page more. */
  extent: ListExtent;
  pages: Record<number, Row[]>;
  requested: Record<number, true>;
  error: string | null;
}

export function emptyPagedRows<Row>(): PagedRows<Row> {
  return {
    generation: 0,
    loadedGeneration: -1,
    queryGeneration: 0,
    dataVersion: 0,
    total: null,
    totalIsLowerBound: false,
    extent: { rows: 0, exact: false },
    pages: {},
    requested: {},
    error: null,
  };
}

type SetRows<Row> = (change: Partial<PagedRows<Row>> | ((state: PagedRows<Row>) => Partial<PagedRows<Row>>)) => void;

export interface PagedRowsOptions<State, Row> {
  pageSize: number;
  /** Asks the desk for rows [offset, offset + limit) of the list `state` describes. */
  fetchPage(state: State, offset: number, limit: number): Promise<PageAnswer<Row>>;
  /** The data version a load started now reads. */
  currentDataVersion(): number;
  /** Called with each page that lands for the current list. */
  onPageLoaded?(state: State, page: number, answer: PageAnswer<Row>): void;
}

/** What a list's own store keeps beside its rows (its query…). */
export type ListOwnState<State, Row> = Partial<Omit<State, keyof PagedRows<Row>>>;

export interface PagedRowsActions<State, Row> {
  /** The query changed: set it (`change`) and start empty from the top, in one update. */
  restart(change?: ListOwnState<State, Row>): void;
  /** Same query, fresh data: with keepRows the rows on screen stay until their fresh copy arrives. */
  reload(options?: { keepRows: boolean }): void;
  /** Makes sure rows [first, last] are loaded or on their way. */
  ensureRows(first: number, last: number): void;
}

export function pagedRowsActions<State extends PagedRows<Row>, Row>(
  set: SetRows<Row>,
  get: () => State,
  options: PagedRowsOptions<State, Row>,
): PagedRowsActions<State, Row> {
  const { pageSize } = options;

  async function loadPage(page: number) {
    const generation = get().generation;
    set((s) => ({ requested: { ...s.requested, [page]: true } }));
    try {
      const answer = await options.fetchPage(get(), page * pageSize, pageSize);
      if (get().generation !== generation) return;
      set((s) => {
        const pages = { ...s.pages, [page]: answer.rows };
        const totalIsLowerBound = answer.totalIsLowerBound === true;
        return {
          total: answer.total,
          totalIsLowerBound,
          pages,
          extent: listExtent(answer.total, totalIsLowerBound, pages, pageSize),
          error: null,
          loadedGeneration: generation,
        };
      });
      options.onPageLoaded?.(get(), page, answer);
    } catch (error) {
      if (get().generation !== generation) return;
      // Forget the request so scrolling back asks again.
      set((s) => {
        const requested = { ...s.requested };
        delete requested[page];
        const total = s.total ?? 0;
        return {
          requested,
          error: describeError(error),
          total,
          extent: listExtent(total, s.totalIsLowerBound, s.pages, pageSize),
          loadedGeneration: generation,
        };
      });
    }
  }

  function restart(change: ListOwnState<State, Row> = {}) {
    set((s) => ({
      // The store's own fields, merged by the same update; this module never reads them.
      ...(change as Partial<PagedRows<Row>>),
      generation: s.generation + 1,
      queryGeneration: s.queryGeneration + 1,
      dataVersion: options.currentDataVersion(),
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
    restart,
    reload: (reloadOptions) => {
      if (!reloadOptions?.keepRows || get().total === null) return restart();
      // Forget which pages were fetched; the table asks again for the rows in view.
      set((s) => ({ generation: s.generation + 1, dataVersion: options.currentDataVersion(), requested: {}, error: null }));
      void loadPage(0);
    },
    ensureRows: (first, last) => {
      const { requested, total, extent } = get();
      for (const page of pagesSpanning(first, last, total === null ? last + 1 : extent.rows, pageSize)) {
        if (!requested[page]) void loadPage(page);
      }
    },
  };
}
