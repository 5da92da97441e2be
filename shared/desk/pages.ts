// The desk's page addresses: each screen (and the record open on it) has a path such as
// `/projects/1006` or `/back-office/credit-history?creditId=…`, so the address follows the screen and
// can be opened, reloaded, and walked with back and forward. The hosts (the web host and Electron's
// app:// protocol) answer the page for every path under these roots; anything else stays a file.
export const DESK_PAGE_ROOTS = ['projects', 'inventories', 'retirements', 'warehouse', 'organizations', 'settings', 'back-office'];

/** True for an address of a desk screen (answered with the page), false for a file or anything else. */
export function isDeskPagePath(pathname: string): boolean {
  const first = pathname.split('/')[1] ?? '';
  return DESK_PAGE_ROOTS.includes(first) && !pathname.includes('..') && !pathname.includes('\\');
}
