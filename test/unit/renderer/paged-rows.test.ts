// The paged-list store logic shared by the project, retirement and inventory lists, driven the way
// the virtualized tables drive it, against a list whose answers the test releases one by one.
import { describe, expect, it } from 'vitest';
import { create } from 'zustand';
import { emptyPagedRows, pagedRowsActions, type PageAnswer, type PagedRows } from '@renderer/stores/pagedRows';
import { listExtent, pagesSpanning, rowInPages } from '@renderer/stores/paging';

const PAGE = 10;

interface Asked {
  query: string;
  offset: number;
  resolve(answer: PageAnswer<string>): void;
  reject(error: Error): void;
}

interface TestList extends PagedRows<string> {
  query: string;
  setQuery(query: string): void;
  ensureRows(first: number, last: number): void;
  refresh(options?: { keepRows: boolean }): void;
}

/** A store over a list whose answers wait until the test gives them. */
function testList() {
  const asked: Asked[] = [];
  let dataVersion = 0;
  const store = create<TestList>()((set, get) => {
    const rows = pagedRowsActions<TestList, string>(set, get, {
      pageSize: PAGE,
      fetchPage: (state, offset) => new Promise((resolve, reject) => asked.push({ query: state.query, offset, resolve, reject })),
      currentDataVersion: () => dataVersion,
    });
    return {
      ...emptyPagedRows<string>(),
      query: '',
      setQuery: (query) => rows.restart({ query }),
      ensureRows: rows.ensureRows,
      refresh: rows.reload,
    };
  });
  /** Answers the oldest open question with rows of `total` named after the query and the data version. */
  async function answer(total: number, options: { lowerBound?: boolean; version?: string } = {}) {
    const next = asked.shift();
    if (!next) throw new Error('nothing was asked');
    const count = Math.max(0, Math.min(PAGE, total - next.offset));
    const rows = Array.from({ length: count }, (_, i) => `${next.query || 'all'}:${options.version ?? 'v0'}:${next.offset + i}`);
    next.resolve({ rows, total: options.lowerBound ? Math.min(total, 25) : total, totalIsLowerBound: options.lowerBound });
    await Promise.resolve();
    await Promise.resolve();
  }
  return { store, asked, answer, setDataVersion: (v: number) => (dataVersion = v) };
}

describe('paged rows', () => {
  it('reads each page the table asks for once, and knows the extent', async () => {
    const { store, asked, answer } = testList();
    store.getState().setQuery('');
    expect(store.getState().total).toBeNull();
    expect(asked.map((a) => a.offset)).toEqual([0]);
    await answer(35);
    expect(store.getState()).toMatchObject({ total: 35, extent: { rows: 35, exact: true }, loadedGeneration: store.getState().generation });
    store.getState().ensureRows(5, 24);
    store.getState().ensureRows(0, 29);
    // Page 0 is there; pages 1 and 2 are asked once each, although two calls span them.
    expect(asked.map((a) => a.offset)).toEqual([10, 20]);
    await answer(35);
    await answer(35);
    expect(rowInPages(store.getState().pages, PAGE, 24)).toBe('all:v0:24');
    // Past the end nothing is asked.
    store.getState().ensureRows(30, 80);
    expect(asked.map((a) => a.offset)).toEqual([30]);
  });

  it('drops a late answer for an older query', async () => {
    const { store, asked, answer } = testList();
    store.getState().setQuery('old');
    store.getState().setQuery('new');
    expect(asked.map((a) => a.query)).toEqual(['old', 'new']);
    const queryGeneration = store.getState().queryGeneration;
    await answer(50);
    expect(store.getState().total).toBeNull();
    await answer(3);
    expect(store.getState().total).toBe(3);
    expect(store.getState().pages[0]).toEqual(['new:v0:0', 'new:v0:1', 'new:v0:2']);
    expect(store.getState().queryGeneration).toBe(queryGeneration);
  });

  it('keeps the rows on screen while fresh data for the same query loads, and says which data it shows', async () => {
    const { store, answer, setDataVersion } = testList();
    store.getState().setQuery('q');
    await answer(0);
    expect(store.getState()).toMatchObject({ total: 0, dataVersion: 0 });
    const queryGeneration = store.getState().queryGeneration;

    setDataVersion(1);
    store.getState().refresh({ keepRows: true });
    // The old total stays on screen, but it is not this generation's answer yet.
    expect(store.getState().total).toBe(0);
    expect(store.getState().loadedGeneration).toBeLessThan(store.getState().generation);
    expect(store.getState().dataVersion).toBe(1);
    await answer(12, { version: 'v1' });
    expect(store.getState()).toMatchObject({ total: 12, dataVersion: 1, loadedGeneration: store.getState().generation, queryGeneration });
    expect(store.getState().pages[0]?.[0]).toBe('q:v1:0');

    // Without keepRows a reload starts empty.
    store.getState().refresh();
    expect(store.getState().total).toBeNull();
    expect(store.getState().queryGeneration).toBe(queryGeneration + 1);
  });

  it('reads on past a lower-bound count until a page comes back short', async () => {
    const { store, asked, answer } = testList();
    store.getState().setQuery('');
    await answer(47, { lowerBound: true });
    expect(store.getState()).toMatchObject({ total: 25, totalIsLowerBound: true, extent: { rows: 25, exact: false } });
    store.getState().ensureRows(0, 24);
    await answer(47, { lowerBound: true });
    await answer(47, { lowerBound: true });
    // A full page at 20 lets the list reach one page further.
    expect(store.getState().extent).toEqual({ rows: 40, exact: false });
    store.getState().ensureRows(30, 39);
    await answer(47, { lowerBound: true });
    expect(store.getState().extent).toEqual({ rows: 50, exact: false });
    store.getState().ensureRows(40, 49);
    expect(asked.map((a) => a.offset)).toEqual([40]);
    await answer(47, { lowerBound: true });
    expect(store.getState().extent).toEqual({ rows: 47, exact: true });
  });

  it('shows a failed page as an error and asks again when the rows come back into view', async () => {
    const { store, asked, answer } = testList();
    store.getState().setQuery('');
    await answer(30);
    store.getState().ensureRows(10, 19);
    asked.shift()!.reject(new Error('The desk is busy'));
    await Promise.resolve();
    await Promise.resolve();
    expect(store.getState()).toMatchObject({ error: 'The desk is busy', total: 30 });
    expect(store.getState().requested[1]).toBeUndefined();
    store.getState().ensureRows(10, 19);
    expect(asked.map((a) => a.offset)).toEqual([10]);
    await answer(30);
    expect(store.getState().error).toBeNull();
    expect(rowInPages(store.getState().pages, PAGE, 19)).toBe('all:v0:19');
  });
});

describe('paging helpers', () => {
  it('spans the pages of a row range, clamped to the list', () => {
    expect(pagesSpanning(0, 9, 100, 10)).toEqual([0]);
    expect(pagesSpanning(5, 25, 100, 10)).toEqual([0, 1, 2]);
    expect(pagesSpanning(-3, 4, 100, 10)).toEqual([0]);
    expect(pagesSpanning(90, 500, 95, 10)).toEqual([9]);
    expect(pagesSpanning(0, 10, 0, 10)).toEqual([]);
  });

  it('gives an exact count as the extent, and a lower bound as far as the rows read reach', () => {
    expect(listExtent(null, false, {}, 10)).toEqual({ rows: 0, exact: false });
    expect(listExtent(42, false, {}, 10)).toEqual({ rows: 42, exact: true });
    const full = Array(10).fill('r');
    expect(listExtent(25, true, { 0: full }, 10)).toEqual({ rows: 25, exact: false });
    expect(listExtent(25, true, { 0: full, 2: full }, 10)).toEqual({ rows: 40, exact: false });
    expect(listExtent(25, true, { 0: full, 2: full, 3: ['r', 'r'] }, 10)).toEqual({ rows: 32, exact: true });
  });
});
