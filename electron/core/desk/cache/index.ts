// The desk's local cache of registry data: its own SQLite file and migrations, the writers the
// sync engine uses, and the read queries the desk service answers the renderer with.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { openSqlite } from '@platform/db/open';
import type { MigrateResult } from '@platform/db/migrate';
import type { SqliteDatabase } from '@platform/db/database';
import { systemClock, type Clock } from '@platform/clock';
import { cacheMigrations } from './migrations';
import type { CacheTables } from './schema';
import { createCacheQueries, createQueryBase } from './queries';
import { createCacheWriters, createWriterBase } from './writers';
import { createResourceQueries, createResourceWriters } from '@desk/resources';
import { setCheckpointElsewhere, settleBackgroundCheckpoint } from './deferred-checkpoint';
import { ANALYSIS_LIMIT } from './deferred-indexes';

export { CacheInputError } from './queries';
export { toFtsPrefixQuery, searchText } from './fts-query';

/** Every query: the shared ones (cache/queries.ts) and each resource's (resources/index.ts). */
export type CacheQueries = ReturnType<typeof createCacheQueries> & ReturnType<typeof createResourceQueries>;

/** Every writer: the shared ones (cache/writers.ts) and each resource's (resources/index.ts). */
export type CacheWriters = ReturnType<typeof createCacheWriters> & ReturnType<typeof createResourceWriters>;

export interface DeskCache extends CacheQueries {
  readonly db: SqliteDatabase<CacheTables>;
  readonly write: CacheWriters;
  readonly migration: MigrateResult;
  close(): void;
}

export interface DeskCacheOptions {
  clock?: Clock;
  /**
   * Checkpoints a first sync's load on another thread (the sync worker asks its host for a worker
   * that does it); without it the load's connection does it in the background (deferred-checkpoint.ts).
   */
  checkpointElsewhere?: () => Promise<void>;
}

function queriesOf(db: SqliteDatabase<CacheTables>): CacheQueries {
  const base = createQueryBase(db);
  return { ...createCacheQueries(base), ...createResourceQueries(base) };
}

function writersOf(db: SqliteDatabase<CacheTables>, now: () => number): CacheWriters {
  const base = createWriterBase(db, now);
  return { ...createCacheWriters(base), ...createResourceWriters(base) };
}

/**
 * The page size of a cache file made from now on (SQLite's default is 4 KiB; a cache made before
 * keeps its own). A first sync writes hundreds of MB in one transaction and then scans whole tables
 * to build their indexes, on the thread that bounds it: with 16 KiB pages such a scan reads a
 * quarter as many pages, and loading 100,000 retirements (rows, search entries, seven indexes,
 * commit) cost 1.5-1.8 s of CPU instead of 2.0-2.5 s (`PAGE_SIZE=16384 npx tsx
 * bench/sqlite-transfer.ts`; bench/README.md, the feed's first sync at scale 100). The page cache
 * keeps its size in bytes (16 MB, below).
 */
const CACHE_PAGE_SIZE = 16_384;

/** Opens (creating) the cache file; throws DatabaseTooNewError for a cache made by a newer desk. */
export function openDeskCache(file: string, options: DeskCacheOptions = {}): DeskCache {
  const clock = options.clock ?? systemClock;
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const { db, migration } = openSqlite<CacheTables>(file, {
    migrations: cacheMigrations,
    now: () => clock.now(),
    pageSize: CACHE_PAGE_SIZE,
  });
  // A bounded page cache (16 MB, SQLite's default made explicit: the sync's peak memory counts it),
  // a WAL file trimmed back after the large swap-in transactions, and ANALYZE sampling a bounded
  // number of index rows so refreshing planner statistics after a sync takes milliseconds.
  db.raw.pragma('cache_size = -16000');
  db.raw.pragma(`journal_size_limit = ${64 * 1024 * 1024}`);
  db.raw.pragma(`analysis_limit = ${ANALYSIS_LIMIT}`);
  if (options.checkpointElsewhere) setCheckpointElsewhere(db, options.checkpointElsewhere);
  return {
    db,
    migration,
    write: writersOf(db, () => clock.now()),
    ...queriesOf(db),
    close: () => {
      // A first sync's checkpoint still under way is finished first (deferred-checkpoint.ts).
      settleBackgroundCheckpoint(db);
      db.close();
    },
  };
}
