import type { Pagination } from '@shared/registry/resources';

/**
 * The pagination envelope of compatibility.md: pages count from 0; nextPage is null on the last
 * page, prevPage null on page 0; a page past the end is an empty page, not an error.
 */
export function pageOf(total: number, page: number, limit: number): { pagination: Pagination; offset: number } {
  const pageCount = Math.ceil(total / limit);
  return {
    offset: page * limit,
    pagination: {
      total,
      currentPage: page,
      pageCount,
      nextPage: page + 1 < pageCount ? page + 1 : null,
      prevPage: page > 0 ? page - 1 : null,
    },
  };
}
