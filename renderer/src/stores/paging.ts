// What the paged, virtualized lists (projects, retirements, inventory credits) share: rows cached by page, and how
// far the list reaches when the desk's count is only a lower bound.

/** The row at `index`, if its page has been read. */
export function rowInPages<R>(pages: Record<number, R[]>, pageSize: number, index: number): R | undefined {
  return pages[Math.floor(index / pageSize)]?.[index % pageSize];
}

/** The pages holding rows [first, last] (last clamped to `rowCount`). */
export function pagesSpanning(first: number, last: number, rowCount: number, pageSize: number): number[] {
  const lastIndex = Math.min(last, rowCount - 1);
  const pages: number[] = [];
  for (let page = Math.floor(Math.max(0, first) / pageSize); page <= Math.floor(lastIndex / pageSize); page++) pages.push(page);
  return pages;
}

export interface ListExtent {
  /** How many rows the list may scroll through (what the virtualizer is given). */
  rows: number;
  /** Whether `rows` is the exact size of the list. */
  exact: boolean;
}

/**
 * How many rows a list may scroll through. An exact count is the size. Past a lower bound
 * ("10,000+": the desk stopped counting), it is the count or, once a full page at or beyond it has
 * been read, one more page after that: scrolling to the end reads on, page by page, until a page
 * comes back short, which gives the exact end.
 */
export function listExtent(
  total: number | null,
  isLowerBound: boolean,
  pages: Record<number, readonly unknown[]>,
  pageSize: number,
): ListExtent {
  if (total === null) return { rows: 0, exact: false };
  if (!isLowerBound) return { rows: total, exact: true };
  let rows = total;
  for (const [key, page] of Object.entries(pages)) {
    const start = Number(key) * pageSize;
    if (page.length < pageSize) return { rows: start + page.length, exact: true };
    rows = Math.max(rows, start + 2 * pageSize);
  }
  return { rows, exact: false };
}
