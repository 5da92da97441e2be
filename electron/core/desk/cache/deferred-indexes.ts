// A first sync's load drops the secondary indexes of the tables it fills in bulk and builds them
// again by a sort each (snapshot-writers.ts). The last of them, the retirements' seven, could only
// be built once the last page had come: at --scale 100 that was a second of the sync's thread at
// its very end, with the registry done and the desk waiting for nothing else (bench/README.md, sync).
//
// Those the load has not built by its commit are left to be built after it: the commit records
// them in deferred_indexes (migration 0009), in its own transaction, and the desk reports the sync
// done. They are then built in the background, before the load's WAL is checkpointed: where the
// sync runs in its worker thread, by whichever thread checkpoints once the run has answered (the
// sync's own, idle, on the load's connection; or a worker of the host's), otherwise on the load's
// connection a turn later. A desk that stops first finds them at its next sync run
// (sync/pass.ts), which builds them before anything else.
//
// Until then the cache is whole and every read answers the same rows; a sort the index serves
// reads the table instead (a search that names an index asks `indexReady` first, in the same read).
// Each build is one transaction: the indexes created, their tables analyzed, their rows removed.
import { sql } from 'kysely';
import type { SqliteDatabase } from '@platform/db/database';
import type { CacheTables } from './schema';
import { buildIndexes } from './bulk-indexes';
import { checkpointedElsewhere, checkpointInBackground } from './deferred-checkpoint';

type Db = SqliteDatabase<CacheTables>;

/** An index as SQLite's catalog holds it: its name, its table, and the statement that creates it. */
export interface IndexDefinition {
  name: string;
  tbl_name: string;
  sql: string;
}

/** Records indexes the caller's transaction has dropped, to be built after it commits. */
export function deferIndexes(db: Db, indexes: readonly IndexDefinition[]): void {
  if (!db.raw.inTransaction) throw new Error('deferIndexes runs inside the transaction that dropped them');
  for (const index of indexes)
    db.run(
      db.q
        .insertInto('deferred_indexes')
        .values({ name: index.name, table_name: index.tbl_name, sql: index.sql })
        .onConflict((oc) =>
          oc.column('name').doUpdateSet((eb) => ({ table_name: eb.ref('excluded.table_name'), sql: eb.ref('excluded.sql') })),
        ),
    );
}

/** Whether an index exists in the cache (inside a read, consistent with the statements after it). */
export function indexReady(db: Pick<Db, 'first'>, name: string): boolean {
  // A read of SQLite's catalog, which is no table of the cache's schema.
  return db.first(sql<{ one: 1 }>`SELECT 1 AS one FROM sqlite_schema WHERE type = 'index' AND name = ${name}`) !== undefined;
}

/**
 * Builds the deferred indexes, if any, in one write transaction (waiting for another writer up to
 * the connection's busy timeout): each index that does not exist yet, then ANALYZE of their tables
 * (the planner's statistics the load left out for them), and their rows removed. Answers the names
 * built. Nothing while this connection is inside a transaction (the caller's, which the build may
 * not join): they wait for the next call.
 */
export function buildDeferredIndexes(db: Db): string[] {
  if (db.raw.inTransaction || db.first(db.q.selectFrom('deferred_indexes').select('name').limit(1)) === undefined) return [];
  return db.transaction(() => {
    // Read again inside the write lock: another connection may have built them meanwhile.
    const deferred = db.all(db.q.selectFrom('deferred_indexes').select(['name', 'table_name', 'sql']).orderBy('name'));
    const missing = deferred.filter((index) => !indexReady(db, index.name));
    // With the sort helper: nothing else of the sync is left to run on the other core.
    buildIndexes(db, missing);
    for (const table of new Set(deferred.map((index) => index.table_name))) db.run(sql`ANALYZE ${sql.table(table)}`);
    db.run(db.q.deleteFrom('deferred_indexes'));
    return missing.map((index) => index.name);
  });
}

/** ANALYZE's bound on the index rows it reads per index (PRAGMA analysis_limit), on every cache connection. */
export const ANALYSIS_LIMIT = 1000;

/**
 * Builds the deferred indexes on a connection opened for the load's checkpoint (checkpointWal's
 * `before`, in the worker that makes it). A build that fails (a writer holding the lock past the
 * busy timeout) is left to the next sync run, and the checkpoint goes on.
 */
export function buildDeferredIndexesOn(db: Db): void {
  try {
    // One checkpoint, the caller's, after the build: none at its commit.
    db.raw.pragma('wal_autocheckpoint = 0');
    db.raw.pragma(`analysis_limit = ${ANALYSIS_LIMIT}`);
    buildDeferredIndexes(db);
  } catch {
    // Left in deferred_indexes: the next sync run builds them.
  }
}

/**
 * After a load's commit: its deferred indexes built, then its WAL checkpointed, in the background
 * (settles when both are done; never rejects). Where another thread checkpoints the load, that
 * thread builds them first (sync/worker/entry.ts); here, on the load's connection, a turn later,
 * once the sync has carried on.
 */
export async function buildIndexesThenCheckpoint(db: Db): Promise<void> {
  if (!checkpointedElsewhere(db)) {
    await new Promise((resolve) => setImmediate(resolve));
    try {
      if (db.raw.open) buildDeferredIndexes(db);
    } catch {
      // Left in deferred_indexes: the next sync run builds them.
    }
  }
  return checkpointInBackground(db);
}
