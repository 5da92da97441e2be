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
//
// A search table (FTS5) can be left the same way: the retirements' search entries, a second of the
// sync's thread at --scale 100, where the retirement pages keep it busy. Its row here holds the
// statement that fills it from its table's rows. A text search has no other way to answer the same
// rows, so while its entries are pending it refuses (SearchEntriesPending, asked with `searchReady`
// in the same read) and the desk's method waits for them (methods/searchable.ts); the build makes
// them first, in a transaction of their own, before any index.
// Each step of a build is one transaction: the entries made (or the indexes created), their tables
// analyzed, their rows removed.
import { sql } from 'kysely';
import type { SqliteDatabase } from '@platform/db/database';
import type { CacheTables } from './schema';
import { buildIndexes } from './bulk-indexes';
import { checkpointedElsewhere, checkpointInBackground } from './deferred-checkpoint';
import { withFtsMergesHeld } from './fts-bulk-load';

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

/** Search entries left to make after the load: the search table, the table they come from, and the statement that fills it. */
export interface DeferredSearch {
  table: string;
  of: string;
  /**
   * One statement without parameters that makes the entries of every row that has none (a row
   * written through between the load's commit and the build has its own already).
   */
  fill: string;
}

/** Records search entries to be made after the caller's transaction (the load's) commits. */
export function deferSearchEntries(db: Db, search: DeferredSearch): void {
  deferIndexes(db, [{ name: search.table, tbl_name: search.of, sql: search.fill }]);
}

/** A text search while its table's entries are still to be made (see searchReady). */
export class SearchEntriesPending extends Error {
  constructor(readonly table: string) {
    super(`the search entries of ${table} are still being made`);
    this.name = 'SearchEntriesPending';
  }
}

/** Whether a search table has its entries (inside a read, consistent with the statements after it). */
export function searchReady(db: Pick<Db, 'first' | 'q'>, table: string): boolean {
  return db.first(db.q.selectFrom('deferred_indexes').select('name').where('name', '=', table)) === undefined;
}

/** Whether a deferred row is a search table's (an FTS5 virtual table) rather than an index. */
const isSearchTable = (db: Db, name: string) =>
  db.first(
    sql<{ one: 1 }>`SELECT 1 AS one FROM sqlite_schema WHERE type = 'table' AND name = ${name} AND sql LIKE 'CREATE VIRTUAL TABLE%'`,
  ) !== undefined;

/** Whether an index exists in the cache (inside a read, consistent with the statements after it). */
export function indexReady(db: Pick<Db, 'first'>, name: string): boolean {
  // A read of SQLite's catalog, which is no table of the cache's schema.
  return db.first(sql<{ one: 1 }>`SELECT 1 AS one FROM sqlite_schema WHERE type = 'index' AND name = ${name}`) !== undefined;
}

/** Every row of deferred_indexes, by name. */
const deferredRows = (db: Db) => db.all(db.q.selectFrom('deferred_indexes').select(['name', 'table_name', 'sql']).orderBy('name'));

/**
 * Builds what the load deferred, if anything, in two write transactions (each waiting for another
 * writer up to the connection's busy timeout). First the search entries, so that a search by words
 * waits for them alone. Then each index that does not exist yet. Each transaction runs ANALYZE of
 * its tables (the planner's statistics the load left out for them) and removes its rows. Answers
 * the names built. Nothing while this connection is inside a transaction (the caller's, which the
 * build may not join): they wait for the next call.
 */
export function buildDeferredIndexes(db: Db): string[] {
  if (db.raw.inTransaction || db.first(db.q.selectFrom('deferred_indexes').select('name').limit(1)) === undefined) return [];
  const searched = db.transaction(() => {
    // Read again inside the write lock: another connection may have built them meanwhile.
    const searches = deferredRows(db).filter((row) => isSearchTable(db, row.name));
    // A bulk fill, without FTS5's merging after each write (fts-bulk-load.ts).
    for (const search of searches) withFtsMergesHeld(db, [search.name], () => db.raw.exec(search.sql));
    return finish(db, searches);
  });
  const indexed = db.transaction(() => {
    const deferred = deferredRows(db).filter((row) => !isSearchTable(db, row.name));
    const missing = deferred.filter((row) => !indexReady(db, row.name));
    // With the sort helper: nothing else of the sync is left to run on the other core.
    buildIndexes(db, missing);
    finish(db, deferred);
    return missing.map((row) => row.name);
  });
  return [...searched, ...indexed];
}

/** Analyzes the tables of the rows built and removes the rows; answers their names. */
function finish(db: Db, built: readonly { name: string; table_name: string }[]): string[] {
  const names = built.map((row) => row.name);
  for (const table of new Set(built.map((row) => row.table_name))) db.run(sql`ANALYZE ${sql.table(table)}`);
  if (names.length > 0) db.run(db.q.deleteFrom('deferred_indexes').where('name', 'in', names));
  return names;
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
