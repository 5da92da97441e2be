// A first sync into an empty cache (the changes feed's snapshot): there is nothing to keep, so the
// staging area and its swap-in are skipped and rows go straight into their tables, inside ONE
// transaction held open for the whole run (BEGIN IMMEDIATE … COMMIT, across the page downloads):
// readers (WAL) keep seeing the empty cache until it commits, and a run that fails or dies rolls
// back to it. The rows, hashes and search entries are the same as the staged path's (writers.ts,
// resources/inventories/writers.ts): the same column functions and statements, the same SQL extraction of
// inventory credits, so both fill the cache identically (test/integration/desk/sync-feed.test.ts compares them).
//
// The only other writer of the cache (a finalized retirement written through, writes.ts) waits for
// this transaction up to the connection's busy timeout, and otherwise leaves it to the sync.
import { sql } from 'kysely';
import type { InventoryAccount } from '@shared/desk/api';
import type { SqliteDatabase } from '@platform/db/database';
import type { CacheTables } from './schema';
import type { CacheResource, ProjectScope } from './types';
import { dropPageHashes, syncSuccess } from './writers';
import { insertProject, PROJECT_SEARCH } from '@desk/resources/projects/writers';
import { insertRetirement, putRetirementSearchBetween } from '@desk/resources/retirements/writers';
import { forgetUnseen, markOrganizationStale } from '@desk/resources/organizations/writers';
import { ACCOUNT_SEARCH, highestRowid, insertCreditFromJson, putSummary } from '@desk/resources/inventories/writers';
import { checkpointInBackground, holdAutocheckpoints, release } from './deferred-checkpoint';
import { secondaryIndexesOf } from './bulk-indexes';
import { holdFtsMerges } from './fts-bulk-load';
import { dropProject, type LoadedProject } from '@desk/resources/projects/feed-load';
import { dropRetirement, dropRetirementSearch, type LoadedRetirement } from '@desk/resources/retirements/feed-load';
import {
  dropUnlistedCredits,
  dropUnlistedDetails,
  dropUnlistedVintages,
  dropVintages,
  putCredits,
  putDetails,
  putVintages,
} from '@desk/resources/project-answers/feed-load';
import { dropAccountCredits, type SnapshotInventory } from '@desk/resources/inventories/feed-load';

export type { LoadedProject, LoadedRetirement, SnapshotInventory };

type Db = SqliteDatabase<CacheTables>;

/** What a feed item fills, for `idleWork`: the kinds whose items have stopped arriving. */
export type LoadedKind = 'inventory' | 'project' | 'retirement';
const KIND_TABLES: Record<LoadedKind, readonly string[]> = {
  inventory: ['inventory_credits'],
  project: [],
  retirement: ['retirements'],
};

export interface SnapshotCounts {
  projects: number;
  internalProjects: number;
  projectDetails: number;
  credits: number;
  inventories: number;
  retirements: number;
}

/**
 * The secondary indexes of the tables loaded in bulk: dropped for the load and built again at its
 * end, inside its transaction. Building an index sorts its rows once; keeping it during the load
 * would insert every row into each of them at a random place (retirements have seven), which at
 * --scale 100 costs more than the rows themselves. Unique indexes and keys stay.
 *
 * The projects' indexes (and project_vintages') stay in place: their rows arrive on pages the
 * registry takes longer to make than the desk to write (the desk waits for each), so keeping their
 * ten indexes costs the load no time there, whereas building them after the projects fell on the
 * retirement pages, where the desk is what the sync waits for (bench/README.md, sync).
 */
const BULK_INDEXED = ['retirements', 'inventory_credits'];
const secondaryIndexes = (db: Db) =>
  BULK_INDEXED.flatMap((table) => secondaryIndexesOf(db, table).map((index) => ({ ...index, tbl_name: table })));

// Whether the cache holds no registry data at all (a snapshot may then be loaded directly).
export { cacheIsEmpty } from './writers';

/**
 * Opens the load's transaction and answers its writers: rows first, then `markProponents`, the
 * feed's removals, `finish`, the organizations and cursor, and `commit` (or `rollback` at any
 * point). Nothing else may write on this connection meanwhile except inside that order, and the
 * history check beside the load (its temporary rows, and what it verified before `finish`).
 */
export function beginSnapshotLoad(db: Db, now: () => number) {
  // Its commit is not checkpointed on the spot (deferred-checkpoint.ts).
  holdAutocheckpoints(db);
  try {
    db.run(sql`BEGIN IMMEDIATE`);
  } catch (error) {
    release(db);
    throw error;
  }
  // Rows an interrupted staged run left behind.
  db.run(db.q.deleteFrom('staging'));
  db.run(db.q.deleteFrom('inventory_staging'));
  const indexes = secondaryIndexes(db);
  for (const index of indexes) db.run(sql`DROP INDEX ${sql.id(index.name)}`);
  const restoreFtsMerges = holdFtsMerges(db);
  const at = now();
  const counts: SnapshotCounts = { projects: 0, internalProjects: 0, projectDetails: 0, credits: 0, inventories: 0, retirements: 0 };
  const projectRowids = { public: new Map<string, number>(), internal: new Map<string, number>() };
  const retirementRowids = new Map<string, number>();
  const proponents = new Set<string>();
  const credited = new Set<string>();
  const insertCredit = db.prepared(insertCreditFromJson);
  const retirementSearch = db.prepared(putRetirementSearchBetween);
  // Indexes built again ahead of the commit (idleWork), and the retirements that have their search
  // entries: rowids up to `searched`, and `highestRetirement` the highest loaded so far.
  const built = new Set<string>();
  let searched = 0;
  let highestRetirement = 0;
  // Accounts whose credits' search entries are still to make: their rows above this rowid.
  const unsearchedAccounts = new Map<InventoryAccount, number>();
  const putAccountSearch = (account: InventoryAccount) => {
    const before = unsearchedAccounts.get(account);
    if (before === undefined) return;
    db.prepared(ACCOUNT_SEARCH[account].putNew).run({ account, before });
    unsearchedAccounts.delete(account);
  };
  const putRetirementSearch = (upTo: number) => {
    if (upTo > searched) retirementSearch.run({ after: searched, upTo });
    searched = Math.max(searched, upTo);
  };

  // Every resource the snapshot fills was read in full.
  const markSuccess = (resource: CacheResource) => {
    const time = now();
    db.prepared(syncSuccess).run({ resource, at: time, fullAt: time, watermark: null, total: null });
  };

  return {
    /** A list row of a scope (a project sent again during the snapshot replaces the first copy). */
    project(scope: ProjectScope, row: LoadedProject): void {
      const search = PROJECT_SEARCH[scope];
      const previous = projectRowids[scope].get(row.id);
      if (previous !== undefined) {
        db.prepared(search.drop).run({ rowid: previous });
        db.prepared(dropProject).run({ rowid: previous });
      } else counts[scope === 'public' ? 'projects' : 'internalProjects']++;
      for (const id of row.parts.proponents) proponents.add(id);
      const { columns } = row.parts;
      const rowid = Number(
        db.prepared(insertProject).run({ scope, id: row.id, ...columns, row_hash: row.hash, json: row.json }).lastInsertRowid,
      );
      projectRowids[scope].set(row.id, rowid);
      db.prepared(search.put).run({ rowid, ...row.parts.search });
    },

    details(id: string, json: string, listHash: string): void {
      if (db.prepared(putDetails).run({ id, json, list_hash: listHash, at }).changes > 0) counts.projectDetails++;
    },

    credits(id: string, json: string, listHash: string): void {
      db.prepared(putCredits).run({ id, json, list_hash: listHash, at });
      if (credited.has(id)) db.prepared(dropVintages).run({ id });
      else counts.credits++;
      credited.add(id);
      db.run(putVintages({ id, json }));
    },

    retirement(row: LoadedRetirement): void {
      // Its search entry is made with others' by `idleWork` or `finish` (putRetirementSearchBetween); a
      // retirement sent again whose first copy has one (or whose rowid is one that had) is searched now.
      const previous = retirementRowids.get(row.id);
      if (previous !== undefined) {
        if (previous <= searched) db.prepared(dropRetirementSearch).run({ rowid: previous });
        db.prepared(dropRetirement).run({ rowid: previous });
      } else counts.retirements++;
      const rowid = Number(
        db.prepared(insertRetirement).run({ id: row.id, ...row.columns, row_hash: row.hash, json: row.json }).lastInsertRowid,
      );
      retirementRowids.set(row.id, rowid);
      if (rowid <= searched) retirementSearch.run({ after: rowid - 1, upTo: rowid });
      highestRetirement = Math.max(highestRetirement, rowid);
    },

    /** One account's whole answer (an account sent again replaces the first). */
    inventory(answer: SnapshotInventory): void {
      const { account } = answer;
      const search = ACCOUNT_SEARCH[account];
      db.prepared(search.dropReplaced).run({ account });
      const replaced = db.prepared(dropAccountCredits).run({ account }).changes;
      counts.inventories -= replaced;
      const before = db.prepared(highestRowid).first({})?.n ?? 0;
      let count = 0;
      for (const credit of answer.credits) {
        insertCredit.run({ account, id: credit.id, row_hash: credit.hash, json: credit.json });
        count++;
      }
      counts.inventories += count;
      // Its search entries are made by `idleWork` or `finish` (one sent before, still to make, had rows now gone).
      unsearchedAccounts.set(account, before);
      db.prepared(putSummary).run({
        account,
        json: JSON.stringify({ summary: answer.summary, organization: answer.organization }),
        at: now(),
        hash: answer.answerHash(),
        count,
      });
    },

    /**
     * One piece of the work `finish` and `commit` would do, that can be done while the load waits
     * for its next page (null: none for now): the search entries of the inventories and of the
     * retirements loaded so far, and the indexes of tables whose items have stopped arriving
     * (`ended`: the last page brought none). An item that arrives after all is written with its
     * table's indexes in place, so guessing wrong costs time, never rows. Each piece is one
     * statement (a second at most at --scale 100).
     */
    idleWork(ended: ReadonlySet<LoadedKind>): (() => void) | null {
      for (const account of unsearchedAccounts.keys()) return () => putAccountSearch(account);
      if (highestRetirement > searched) {
        const upTo = highestRetirement;
        return () => putRetirementSearch(upTo);
      }
      for (const kind of ended) {
        const index = indexes.find((i) => !built.has(i.name) && KIND_TABLES[kind].includes(i.tbl_name));
        if (index)
          return () => {
            db.raw.exec(index.sql);
            built.add(index.name);
          };
      }
      return null;
    },

    /** Marks the listed projects' proponents for a refresh (before the feed's organizations are put). */
    markProponents(): void {
      for (const id of proponents) {
        db.prepared(markOrganizationStale).run({ id });
        db.prepared(forgetUnseen).run({ id });
      }
    },

    /**
     * Finishes the resources as their staged commits do (answers of projects not listed dropped,
     * page hashes, sync_state). `examinerRead` says which project scope per-project answers follow.
     */
    finish(examinerRead: boolean): SnapshotCounts {
      for (const account of [...unsearchedAccounts.keys()]) putAccountSearch(account);
      putRetirementSearch(highestRetirement);
      db.prepared(dropUnlistedDetails).run({});
      db.prepared(dropUnlistedCredits).run({ scope: examinerRead ? 'internal' : 'public' });
      db.prepared(dropUnlistedVintages).run({});
      for (const resource of ['projects', 'internalProjects', 'retirements'] as const) db.prepared(dropPageHashes).run({ resource });
      for (const resource of ['projects', 'internalProjects', 'credits', 'inventories', 'retirements'] as const) markSuccess(resource);
      if (examinerRead) markSuccess('projectDetails');
      return counts;
    },

    /**
     * Builds the indexes again, refreshes the planner statistics of what was loaded and commits the
     * load; the WAL is then checkpointed in the background, which the answer settles with (nothing
     * needs to wait for it: closing the cache finishes it).
     */
    commit(): Promise<void> {
      for (const index of indexes) if (!built.has(index.name)) db.raw.exec(index.sql);
      restoreFtsMerges();
      for (const table of ['projects', 'retirements', 'inventory_credits'] as const) db.run(sql`ANALYZE ${sql.table(table)}`);
      db.run(sql`COMMIT`);
      return checkpointInBackground(db);
    },

    rollback(): void {
      if (db.raw.inTransaction) db.run(sql`ROLLBACK`);
      release(db);
    },
  };
}

export type SnapshotLoad = ReturnType<typeof beginSnapshotLoad>;
