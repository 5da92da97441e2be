// The cache as a resource kind sees it: the database, the shared reads (queries.ts) and the shared
// writers (writers.ts), and none of the kinds'. Types only. The sync steps' context takes its cache
// type from here (sync/context.ts), each kind adding its own writers and queries (`CacheWith`), so
// the list of kinds (resources/list.ts), from which the whole cache is made (index.ts), can hold
// the kinds' steps without the cache's type depending on itself.
import type { SqliteDatabase } from '@platform/db/database';
import type { CacheTables } from './schema';
import type { createCacheQueries } from './queries';
import type { createCacheWriters } from './writers';

export type CoreQueries = ReturnType<typeof createCacheQueries>;
export type CoreWriters = ReturnType<typeof createCacheWriters>;

export type CoreCache = CoreQueries & {
  readonly db: SqliteDatabase<CacheTables>;
  readonly write: CoreWriters;
};

/** The shared cache with some kinds' writers (`cache.write.*`) and queries (`cache.*`). */
export type CacheWith<Writers extends object, Queries extends object = object> = CoreCache &
  Queries & { readonly write: CoreWriters & Writers };
