// Writing into the cache: what every resource's writers share (resources/<kind>/writers.ts
// hold each resource's own). List resources are collected page by page into `staging` and swapped in
// by one transaction at the end of a run (commit*), together with their sync_state and page hashes:
// a reader sees either the previous resource or the new one, never a mix, and a run that dies
// half-way leaves the previous data (and page hashes) exactly as they were.
import { sql, type Kysely, type NotNull } from 'kysely';
import type { SqliteDatabase } from '@platform/db/database';
import type { CacheTables } from './schema';
import { checkpointInBackground, holdAutocheckpoints } from './deferred-checkpoint';
import { dropSecondaryIndexes } from './bulk-indexes';
import { buildDeferredIndexes } from './deferred-indexes';
import type { CacheResource, FeedCursorKey, StagedRow } from './types';

export interface PageHash {
  page: number;
  hash: string;
  ids: string[];
}

export interface CommitOptions {
  /** Rows the run did not see are deleted (a full pass); false for an incremental pass. */
  full: boolean;
  pageHashes: PageHash[];
  watermark?: string | null;
  total?: number | null;
}

export type Q = Kysely<CacheTables>;
export type Db = SqliteDatabase<CacheTables>;

// The writers' statements, compiled once per connection (SqliteDatabase.prepared): a sync runs
// them for every row.
export const syncSuccess = (
  v: { resource: CacheResource; at: number; fullAt: number | null; watermark: string | null; total: number | null },
  q: Q,
) =>
  q
    .insertInto('sync_state')
    .values({
      resource: v.resource,
      last_success_at: v.at,
      last_attempt_at: v.at,
      last_error: null,
      last_full_at: v.fullAt,
      watermark: v.watermark,
      total: v.total,
    })
    .onConflict((oc) =>
      oc.column('resource').doUpdateSet((eb) => ({
        last_success_at: eb.ref('excluded.last_success_at'),
        last_attempt_at: eb.ref('excluded.last_attempt_at'),
        last_error: null,
        last_full_at: eb.fn.coalesce('excluded.last_full_at', 'sync_state.last_full_at'),
        watermark: eb.fn.coalesce('excluded.watermark', 'sync_state.watermark'),
        total: eb.fn.coalesce('excluded.total', 'sync_state.total'),
      })),
    );
const syncFailure = (v: { resource: CacheResource; at: number; message: string }, q: Q) =>
  q
    .insertInto('sync_state')
    .values({ resource: v.resource, last_attempt_at: v.at, last_error: v.message })
    .onConflict((oc) =>
      oc
        .column('resource')
        .doUpdateSet((eb) => ({ last_attempt_at: eb.ref('excluded.last_attempt_at'), last_error: eb.ref('excluded.last_error') })),
    );
export const dropPageHashes = (v: { resource: CacheResource }, q: Q) => q.deleteFrom('page_hashes').where('resource', '=', v.resource);
const putPageHash = (v: { resource: CacheResource; page: number; hash: string; ids: string }, q: Q) =>
  q.replaceInto('page_hashes').values({ resource: v.resource, page: v.page, hash: v.hash, ids: v.ids });
export const dropStaging = (v: { resource: CacheResource }, q: Q) => q.deleteFrom('staging').where('resource', '=', v.resource);
const putStaging = (v: { resource: CacheResource; id: string; row_hash: string; json: string | null }, q: Q) =>
  q.replaceInto('staging').values({ resource: v.resource, id: v.id, row_hash: v.row_hash, json: v.json });
const stagedHashes = (v: { resource: CacheResource }, q: Q) =>
  q.selectFrom('staging').select(['id', 'row_hash']).where('resource', '=', v.resource);
const CHUNK = 500;
const stagedChunk = (v: { resource: CacheResource; after: string }, q: Q) =>
  q
    .selectFrom('staging')
    .select(['id', 'row_hash', 'json'])
    .where('resource', '=', v.resource)
    .where('json', 'is not', null)
    .where('id', '>', v.after)
    .orderBy('id')
    .limit(CHUNK)
    .$narrowType<{ json: NotNull }>();

// The ids a pass keeps, in a temporary table (not part of the cache's schema).
type KeepIds = { 'temp.keep_ids': { id: string } };
const keepId = (v: { id: string }, q: Q) => q.withTables<KeepIds>().insertInto('temp.keep_ids').orIgnore().values({ id: v.id });
export const keptIds = (q: Q) => q.withTables<KeepIds>().selectFrom('temp.keep_ids').select('id');
const dropKeepIds = (_v: Record<string, never>, q: Q) => q.withTables<KeepIds>().deleteFrom('temp.keep_ids');

/** Fills temp.keep_ids with `ids` (emptied again by `forgetKeepIds`). */
export function rememberKeepIds(db: Db, ids: readonly string[]): void {
  // DDL: kysely's schema builder has no WITHOUT ROWID.
  db.run(sql`CREATE TEMP TABLE IF NOT EXISTS keep_ids (id TEXT PRIMARY KEY) WITHOUT ROWID`);
  db.prepared(dropKeepIds).run({});
  const keep = db.prepared(keepId);
  for (const id of ids) keep.run({ id });
}
export const forgetKeepIds = (db: Db): void => void db.prepared(dropKeepIds).run({});

/** The tables a first sync fills; all are empty before it (a feed snapshot may then be loaded directly). */
const LOADED_TABLES = ['projects', 'project_details', 'project_credits', 'retirements', 'inventory_credits'] as const;

/** SQLite's page cache during a first sync through the seed interface (KiB, as cache_size takes it). */
const FIRST_SYNC_CACHE_SIZE = -64000;

/** Whether the cache holds no registry data at all. */
export function cacheIsEmpty(db: Db): boolean {
  return LOADED_TABLES.every((table) => db.first(sql<{ one: 1 }>`SELECT 1 AS one FROM ${sql.table(table)} LIMIT 1`) === undefined);
}

/**
 * What every resource's writers use: the database, the clock, and the steps each swap-in shares
 * (sync_state, page hashes, the staged rows, a load's one transaction).
 */
export function createWriterBase(db: Db, now: () => number) {
  function markSuccess(resource: CacheResource, extra: { full?: boolean; watermark?: string | null; total?: number | null } = {}) {
    const at = now();
    db.prepared(syncSuccess).run({
      resource,
      at,
      fullAt: extra.full ? at : null,
      watermark: extra.watermark ?? null,
      total: extra.total ?? null,
    });
  }

  function replacePageHashes(resource: CacheResource, pages: PageHash[], full: boolean) {
    if (full) db.prepared(dropPageHashes).run({ resource });
    const insert = db.prepared(putPageHash);
    for (const p of pages) insert.run({ resource, page: p.page, hash: p.hash, ids: JSON.stringify(p.ids) });
  }

  /**
   * Staged rows with JSON, in chunks: better-sqlite3 cannot write while a statement iterates, and
   * reading all at once would hold a whole resource's JSON in memory.
   */
  function* changedRows(resource: CacheResource): Generator<{ id: string; row_hash: string; json: string }> {
    const chunk = db.prepared(stagedChunk);
    let after = '';
    for (;;) {
      const rows = chunk.all({ resource, after });
      yield* rows;
      if (rows.length < CHUNK) return;
      after = rows[rows.length - 1]!.id;
    }
  }

  /**
   * Re-samples a table's index statistics (bounded by the connection's analysis_limit, so a few
   * milliseconds): without them the planner cannot tell a selective filter (one vintage) from a
   * broad one (claimed) and may walk tens of thousands of rows.
   */
  function refreshPlannerStatistics(table: 'projects' | 'retirements') {
    db.run(sql`ANALYZE ${sql.table(table)}`);
  }

  /**
   * Opens the one transaction of a full pass loaded straight into an empty table (beginProjectsLoad,
   * beginRetirementsLoad): drops what an interrupted staged run of the resource left behind, and
   * the table's secondary indexes, answered so the pass builds them again once at its end.
   */
  function beginLoad(resource: CacheResource, table: 'projects' | 'retirements'): { name: string; sql: string }[] {
    db.run(sql`BEGIN IMMEDIATE`);
    try {
      db.prepared(dropStaging).run({ resource });
      return dropSecondaryIndexes(db, table);
    } catch (error) {
      db.run(sql`ROLLBACK`);
      throw error;
    }
  }

  /** Removes the stored cursors of every installation's feed (warehouses' putInstallationFeeds). */
  function forgetInstallationCursors(): void {
    db.run(db.q.deleteFrom('sync_state').where('resource', 'like', 'feed:installation:%'));
  }

  /** A cursor of the feed by its key (cache queries' feedCursorOf); null forgets it. */
  function setFeedCursorOf(key: FeedCursorKey, cursor: string | null): void {
    if (cursor === null) db.run(db.q.deleteFrom('sync_state').where('resource', '=', key));
    else
      db.run(
        db.q
          .insertInto('sync_state')
          .values({ resource: key, watermark: cursor })
          .onConflict((oc) => oc.column('resource').doUpdateSet((eb) => ({ watermark: eb.ref('excluded.watermark') }))),
      );
  }

  return {
    db,
    now,
    markSuccess,
    replacePageHashes,
    changedRows,
    refreshPlannerStatistics,
    beginLoad,
    dropStaging: (resource: CacheResource) => void db.prepared(dropStaging).run({ resource }),
    setFeedCursorOf,
    forgetInstallationCursors,
  };
}
export type WriterBase = ReturnType<typeof createWriterBase>;

/** The writers that are no resource's own: staging, cursors, checkpoints, success and failure marks. */
export function createCacheWriters(base: WriterBase) {
  const { db, now, markSuccess } = base;
  return {
    /**
     * A first sync through the seed interface writes the whole cache in many transactions (staged
     * batches, then each resource's swap-in). SQLite's automatic checkpoint would copy the WAL into
     * the database file and wait for the disk every few megabytes of them (a sixth of the run's
     * time at --scale 30). Into an empty cache they are held off for the run and the WAL is
     * checkpointed once after it, in the background, as a feed snapshot's load is
     * (deferred-checkpoint.ts). Answers what ends the hold (call it once the run is over), or null
     * when the cache holds data (a re-sync writes little) or checkpoints are held already.
     */
    deferCheckpointsIfEmpty(): (() => Promise<void>) | null {
      if (!cacheIsEmpty(db) || !holdAutocheckpoints(db)) return null;
      // A larger page cache for the run: the swap-ins and index builds of whole tables otherwise
      // spill and re-read pages of the 16 MB one.
      const cacheSize = db.raw.pragma('cache_size', { simple: true }) as number;
      db.raw.pragma(`cache_size = ${FIRST_SYNC_CACHE_SIZE}`);
      return () => {
        if (db.raw.open) db.raw.pragma(`cache_size = ${cacheSize}`);
        return checkpointInBackground(db);
      };
    },

    /** Starts collecting a resource afresh (rows staged by an interrupted run are dropped). */
    beginStaging(resource: CacheResource): void {
      db.prepared(dropStaging).run({ resource });
    },

    /** Adds one page of rows to the staging area, in one transaction. */
    stage(resource: CacheResource, rows: readonly StagedRow[]): void {
      const insert = db.prepared(putStaging);
      db.transaction(() => {
        for (const row of rows) insert.run({ resource, id: row.id, row_hash: row.hash, json: row.json });
      });
    },

    /** Row hashes of staged rows (to resume per-project fetches an earlier run already did). */
    stagedHashes(resource: CacheResource): Map<string, string> {
      const rows = db.prepared(stagedHashes).all({ resource });
      return new Map(rows.map((r) => [r.id, r.row_hash]));
    },

    /** The changes feed's cursor (and the view it was taken with); null starts from a snapshot. */
    setFeedCursor(cursor: string | null): void {
      base.setFeedCursorOf('feed', cursor);
    },

    /** A cursor of the feed by its key (cache queries' feedCursorOf); null forgets it. */
    setFeedCursorOf: base.setFeedCursorOf,

    /**
     * Builds the indexes a first sync's load left to build after it (deferred-indexes.ts), if a
     * desk stopped before its background build; answers their names. Waits for another writer up
     * to the busy timeout, and throws SQLITE_BUSY past it (the indexes then wait for the next call).
     */
    buildDeferredIndexes: () => buildDeferredIndexes(db),

    /** Marks resources synced with nothing to write (a changes-feed run that found no change), in one transaction. */
    markSynced(resources: readonly CacheResource[]): void {
      db.transaction(() => {
        for (const resource of resources) markSuccess(resource);
      });
    },

    /** Records a failed attempt; the last good data and its success time stay. */
    markFailure(resource: CacheResource, message: string): void {
      db.prepared(syncFailure).run({ resource, at: now(), message });
    },

    /** Marks a resource synced without data to write (e.g. internal projects without examiner:read). */
    markSkipped(resource: CacheResource): void {
      markSuccess(resource);
    },
  };
}
