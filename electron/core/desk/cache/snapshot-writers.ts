// A first sync into an empty cache (the changes feed's snapshot): there is nothing to keep, so the
// staging area and its swap-in are skipped and rows go straight into their tables, inside ONE
// transaction held open for the whole run (BEGIN IMMEDIATE … COMMIT, across the page downloads):
// readers (WAL) keep seeing the empty cache until it commits, and a run that fails or dies rolls
// back to it. The rows, hashes and search entries are the same as the staged path's (each kind's
// writers.ts): the same column functions and statements, the same SQL extraction of
// inventory credits, so both fill the cache identically (test/integration/desk/sync-feed.test.ts compares them).
//
// The only other writer of the cache (a finalized retirement written through, writes.ts) waits for
// this transaction up to the connection's busy timeout, and otherwise leaves it to the sync.
import { sql } from 'kysely';
import type { SyncResource } from '@shared/desk/api';
import type { SqliteDatabase } from '@platform/db/database';
import type { FeedPass } from '@desk/resources/feed-part';
import { FEED_KINDS, type FeedCache, type RESOURCE_KINDS } from '@desk/resources/list';
import type { CacheTables } from './schema';
import type { CacheResource } from './types';
import { syncSuccess } from './writers';
import { holdAutocheckpoints, release } from './deferred-checkpoint';
import { secondaryIndexesOf } from './bulk-indexes';
import { buildIndexesThenCheckpoint, deferIndexes } from './deferred-indexes';
import { holdFtsMerges } from './fts-bulk-load';

type Db = SqliteDatabase<CacheTables>;
type Kind = (typeof RESOURCE_KINDS)[number];
/** Each kind's part of the load, by its folder's name (a kind the feed sends nothing of has none). */
export type LoadParts = { [K in Kind as K['folder']]?: ReturnType<NonNullable<K['feed']>['load']> };

/**
 * The secondary indexes of the tables the kinds load in bulk (their feed parts' `bulkIndexed`):
 * dropped for the load and built again while it waits for pages, inside its transaction, or, those
 * whose rows came to the end, after its commit (deferred-indexes.ts). Building an index sorts
 * its rows once; keeping it during the load would insert every row into each of them at a random
 * place (retirements have seven), which at --scale 100 costs more than the rows themselves. Unique
 * indexes and keys stay.
 *
 * The projects' indexes (and project_vintages') stay in place: their rows arrive on pages the
 * registry takes longer to make than the desk to write (the desk waits for each), so keeping their
 * ten indexes costs the load no time there, whereas building them after the projects fell on the
 * retirement pages, where the desk is what the sync waits for (bench/README.md, sync).
 */
const secondaryIndexes = (db: Db) =>
  FEED_KINDS.flatMap(({ folder, feed }) =>
    feed.bulkIndexed.flatMap((table) => secondaryIndexesOf(db, table).map((index) => ({ ...index, tbl_name: table, folder }))),
  );

// Whether the cache holds no registry data at all (a snapshot may then be loaded directly).
export { cacheIsEmpty } from './writers';

/** Opens the load's transaction, having cleared what an interrupted staged run left behind. */
function openLoad(db: Db): void {
  // Its commit is not checkpointed on the spot (deferred-checkpoint.ts).
  holdAutocheckpoints(db);
  try {
    db.run(sql`BEGIN IMMEDIATE`);
  } catch (error) {
    release(db);
    throw error;
  }
  db.run(db.q.deleteFrom('staging'));
  db.run(db.q.deleteFrom('inventory_staging'));
}

/**
 * Opens the load's transaction and answers its writers: each kind's part (`parts`: its items, by
 * the feed's pass) first, then `beforeRemovals`, the feed's removals, `finish`, `afterFinish`, the
 * cursor, and `commit` (or `rollback` at any point). Nothing else may write on this connection
 * meanwhile except inside that order, and the history check beside the load (its temporary rows,
 * and what it verified before `finish`).
 */
export function beginSnapshotLoad(db: Db, now: () => number) {
  openLoad(db);
  const indexes = secondaryIndexes(db);
  for (const index of indexes) db.run(sql`DROP INDEX ${sql.id(index.name)}`);
  const restoreFtsMerges = holdFtsMerges(db);
  // Every resource the snapshot fills was read in full.
  const markSuccess = (resource: CacheResource) => {
    const time = now();
    db.prepared(syncSuccess).run({ resource, at: time, fullAt: time, watermark: null, total: null });
  };
  const loaded = FEED_KINDS.map(({ folder, feed }) => ({ folder, feed, part: feed.load({ db, now, markSuccess }) }));
  const parts = Object.fromEntries(loaded.map(({ folder, part }) => [folder, part])) as LoadParts;
  // Indexes built again ahead of the commit (idleWork), on this thread alone: meanwhile the registry
  // makes the next pages on the other core, where a sort helper (buildIndexes) would compete with it.
  const built = new Set<string>();
  const buildIndex = (index: (typeof indexes)[number]) => {
    db.raw.exec(index.sql);
    built.add(index.name);
  };

  return {
    /** The kinds' parts, in run order, for the feed's pass. */
    kinds: loaded,
    parts,

    /**
     * One piece of the work `finish` and `commit` would do, that can be done while the load waits
     * for its next page (null: none for now): the kinds' own (search entries of what they loaded so
     * far), then the indexes of kinds whose items have stopped arriving (`ended`: the last page
     * brought none, by folder). An item that arrives after all is written with its table's indexes
     * in place, so guessing wrong costs time, never rows. Each piece is one statement (a second at
     * most at --scale 100).
     */
    idleWork(ended: ReadonlySet<string>): (() => void) | null {
      for (const { part } of loaded) {
        const work = part.idleWork?.();
        if (work) return work;
      }
      for (const folder of ended) {
        const index = indexes.find((i) => !built.has(i.name) && i.folder === folder);
        if (index) return () => buildIndex(index);
      }
      return null;
    },

    /** Each kind's work before the feed's removals (the listed projects' proponents marked for a refresh). */
    beforeRemovals(): void {
      for (const { part } of loaded) part.beforeRemovals?.();
    },

    /**
     * Finishes the resources as their staged commits do (answers of projects not listed dropped,
     * page hashes, sync_state). `examinerRead` says which project scope per-project answers follow.
     */
    finish(examinerRead: boolean): Partial<Record<SyncResource, number>> {
      return Object.assign({}, ...loaded.map(({ part }) => part.finish(examinerRead))) as Partial<Record<SyncResource, number>>;
    },

    /** What the kinds put once all have finished (the feed's organizations). */
    afterFinish(pass: FeedPass<FeedCache>): void {
      for (const { part } of loaded) part.afterFinish?.(pass);
    },

    /**
     * Records the indexes not built yet to be built after the commit (deferred-indexes.ts),
     * refreshes the planner statistics of the tables whose indexes are all there and commits the
     * load; the deferred indexes are then built and the WAL checkpointed in the background, which
     * the answer settles with (nothing needs to wait for it: closing the cache finishes the
     * checkpoint, and the next sync run the indexes).
     */
    commit(): Promise<void> {
      const deferred = indexes.filter((index) => !built.has(index.name));
      deferIndexes(db, deferred);
      restoreFtsMerges();
      const analyzedLater = new Set(deferred.map((index) => index.tbl_name));
      for (const { feed } of loaded)
        for (const table of feed.analyzed) if (!analyzedLater.has(table)) db.run(sql`ANALYZE ${sql.table(table)}`);
      db.run(sql`COMMIT`);
      return buildIndexesThenCheckpoint(db);
    },

    rollback(): void {
      if (db.raw.inTransaction) db.run(sql`ROLLBACK`);
      release(db);
    },
  };
}

export type SnapshotLoad = ReturnType<typeof beginSnapshotLoad>;
