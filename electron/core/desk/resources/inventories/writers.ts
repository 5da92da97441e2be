// Writing the registry accounts' inventories (migration 0004). A sync stages each changed account's
// credits in `inventory_staging`, in batches, with JSON only for credits that are new or changed;
// then one transaction swaps every changed account in, together with the accounts' summaries and
// sync_state: a reader sees the previous inventories or the new ones, and a run that fails
// half-way leaves the previous ones exactly as they were.
import type { InventoryAccount } from '@shared/desk/api';
import type { InventorySummary, OrganizationSummary } from '@shared/registry/resources';
import { sql, type Kysely } from 'kysely';
import type { SqliteDatabase } from '@platform/db/database';
import type { CacheTables } from '@desk/cache/schema';
import { inventoryFtsFacets, inventoryFtsTable } from './fts';
import type { StagedRow } from '@desk/cache/types';
import { withIndexesBuiltAfter } from '@desk/cache/bulk-indexes';
import { replaceCredit, type CreditColumns } from './credit-rows';

/** An account whose answer changed since the last sync: its staged credits and its envelope. */
export interface ChangedInventory {
  account: InventoryAccount;
  /** Hash of the registry's answer text: the next sync skips an answer with the same hash. */
  answerHash: string;
  summary: InventorySummary;
  organization: OrganizationSummary;
  creditCount: number;
}

type Q = Kysely<CacheTables>;
type AccountValues = { account: InventoryAccount };

// The statements, compiled once per connection (SqliteDatabase.prepared).
const dropAllStaging = (_v: Record<string, never>, q: Q) => q.deleteFrom('inventory_staging');
const dropAccountStaging = (v: AccountValues, q: Q) => q.deleteFrom('inventory_staging').where('account', '=', v.account);
const putStaging = (v: { account: InventoryAccount; id: string; row_hash: string; json: string | null }, q: Q) =>
  q.replaceInto('inventory_staging').values({ account: v.account, id: v.id, row_hash: v.row_hash, json: v.json });
/** Cached credits of the account that the run did not stage at all: no longer held. */
const countGone = (v: AccountValues, q: Q) =>
  q
    .selectFrom('inventory_credits as c')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('c.account', '=', v.account)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('inventory_staging as s').select('s.id').where('s.account', '=', v.account).whereRef('s.id', '=', 'c.id'))),
    );
/**
 * Rows to replace: every cached credit of the account except those staged as unchanged (json
 * NULL): the ones no longer held and the ones whose new copy is staged.
 */
const replacedRowids = (v: AccountValues, q: Q) =>
  q
    .selectFrom('inventory_credits as c')
    .select('c.rowid')
    .where('c.account', '=', v.account)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('inventory_staging as s')
            .select('s.id')
            .where('s.account', '=', v.account)
            .whereRef('s.id', '=', 'c.id')
            .where('s.json', 'is', null),
        ),
      ),
    );
const dropReplaced = (v: AccountValues, q: Q) => q.deleteFrom('inventory_credits').where('rowid', 'in', replacedRowids(v, q));
export const highestRowid = (_v: Record<string, never>, q: Q) =>
  q.selectFrom('inventory_credits').select((eb) => eb.fn.coalesce(eb.fn.max('rowid'), sql.lit(0)).as('n'));
/** The staged new and changed credits, their columns read from the staged JSON by SQLite: no credit is parsed again in JS. */
const insertStaged = (v: AccountValues, q: Q) =>
  q
    .insertInto('inventory_credits')
    .columns([
      'account',
      'id',
      'project_id',
      'project_name',
      'project_num',
      'serialization',
      'vintage',
      'type',
      'amount',
      'supply',
      'unit',
      'token_id',
      'token_address',
      'row_hash',
      'json',
    ])
    .expression(
      q
        .selectFrom('inventory_staging as s')
        .select((eb) => [
          eb.val(v.account).as('account'),
          's.id',
          sql<string>`s.json ->> '$.project.id'`.as('project_id'),
          sql<string>`s.json ->> '$.project.fullName'`.as('project_name'),
          sql<string>`s.json ->> '$.project.num'`.as('project_num'),
          sql<string>`s.json ->> '$.serialization'`.as('serialization'),
          sql<string>`s.json ->> '$.vintage'`.as('vintage'),
          sql<string>`s.json ->> '$.type'`.as('type'),
          sql<number>`s.json ->> '$.amount'`.as('amount'),
          sql<number>`s.json ->> '$.supply'`.as('supply'),
          sql<string>`s.json ->> '$.unit'`.as('unit'),
          sql<string>`s.json ->> '$.tokenId'`.as('token_id'),
          sql<string>`s.json ->> '$.tokenAddress'`.as('token_address'),
          's.row_hash',
          's.json',
        ])
        .where('s.account', '=', v.account)
        .where('s.json', 'is not', null)
        .orderBy('s.rowid'),
    );
export const putSummary = (v: { account: InventoryAccount; json: string; at: number; hash: string; count: number }, q: Q) =>
  q
    .insertInto('inventories')
    .values({ account: v.account, json: v.json, fetched_at: v.at, answer_hash: v.hash, credit_count: v.count })
    .onConflict((oc) =>
      oc.column('account').doUpdateSet((eb) => ({
        json: eb.ref('excluded.json'),
        fetched_at: eb.ref('excluded.fetched_at'),
        answer_hash: eb.ref('excluded.answer_hash'),
        credit_count: eb.ref('excluded.credit_count'),
      })),
    );

const anyCredit = (_v: Record<string, never>, q: Q) => q.selectFrom('inventory_credits').select(sql.lit(1).as('one')).limit(1);
const countCredits = (v: AccountValues, q: Q) =>
  q
    .selectFrom('inventory_credits')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account', '=', v.account);
/** Planner statistics for the new rows (bounded by analysis_limit: milliseconds). */
export const analyzeCredits = () => sql`ANALYZE inventory_credits`;

/**
 * The search entries of the account's credits with rowids above `before` (and up to `upTo`), into its
 * FTS table, in rowid order. The rows are read by their rowid range, never through an index on the
 * account (the unary `+`): a first load's empty cache has no planner statistics, and SQLite took the
 * (account, id) index, which hands the rows over in id order. FTS5 writes its pending entries out as
 * a segment whenever a rowid is not above the last one, so entries in random order became thousands
 * of tiny segments, and each row was a random read: a 5,000-row piece took about 100 ms instead of
 * 20 (bench/README.md, sync).
 */
function searchEntries(q: Q, table: 'inventory_buffer_fts', account: InventoryAccount, before: number, upTo = Number.MAX_SAFE_INTEGER) {
  return q
    .insertInto(table)
    .columns(['rowid', 'project', 'num', 'facets'])
    .expression(
      q
        .selectFrom('inventory_credits')
        .select(['rowid', 'project_name', 'project_num', inventoryFtsFacets.as('facets')])
        .where(sql<InventoryAccount>`+account`, '=', account)
        .where('rowid', '>', before)
        .where('rowid', '<=', upTo)
        .orderBy('rowid'),
    );
}

/** Each account's FTS table and its statements (the table is the account's: no account in the query). */
function accountSearch(account: InventoryAccount) {
  const table = inventoryFtsTable(account) as 'inventory_buffer_fts';
  return {
    dropReplaced: (v: AccountValues, q: Q) => q.deleteFrom(table).where('rowid', 'in', replacedRowids(v, q)),
    /** Entries for the rows inserted after `before` (new rows get rowids above every current one). */
    putNew: (v: { account: InventoryAccount; before: number }, q: Q) => searchEntries(q, table, v.account, v.before),
    /** Entries for the account's rows with rowids in (`before`, `upTo`]: a load's search entries, a piece at a time. */
    putBetween: (v: { account: InventoryAccount; before: number; upTo: number }, q: Q) =>
      searchEntries(q, table, v.account, v.before, v.upTo),
  };
}
export const ACCOUNT_SEARCH = {
  buffer: accountSearch('buffer'),
  adjustment: accountSearch('adjustment'),
  organization: accountSearch('organization'),
};

export function createInventoryWriters(db: SqliteDatabase<CacheTables>, now: () => number, markSuccess: () => void) {
  function discardInventoryStaging(): void {
    db.prepared(dropAllStaging).run({});
  }

  /** Swaps in one account's staged credits; returns the credits written (new or changed) and removed. */
  /** An account's summary and organization, with the hash and credit count of the answer they came from. */
  function putAccountSummary(change: ChangedInventory) {
    db.prepared(putSummary).run({
      account: change.account,
      json: JSON.stringify({ summary: change.summary, organization: change.organization }),
      at: now(),
      hash: change.answerHash,
      count: change.creditCount,
    });
  }

  function applyAccount(change: ChangedInventory): { written: number; deleted: number } {
    const values = { account: change.account };
    const search = ACCOUNT_SEARCH[change.account];
    const deleted = db.prepared(countGone).first(values)?.n ?? 0;
    db.prepared(search.dropReplaced).run(values);
    db.prepared(dropReplaced).run(values);
    // New rows get rowids above every current one: that is how their search entries are found.
    const before = db.prepared(highestRowid).first({})?.n ?? 0;
    const written = db.prepared(insertStaged).run(values).changes;
    db.prepared(search.putNew).run({ ...values, before });
    putAccountSummary(change);
    db.prepared(dropAccountStaging).run(values);
    return { written, deleted };
  }

  return {
    /** Starts collecting inventories afresh (credits staged by an interrupted run are dropped). */
    beginInventoryStaging: discardInventoryStaging,
    /** Drops what a failed run staged (its previous inventories stay as they were). */
    discardInventoryStaging,

    /** Adds a batch of an account's credits to the staging area, in one transaction. */
    stageInventoryCredits(account: InventoryAccount, rows: readonly StagedRow[]): void {
      const insert = db.prepared(putStaging);
      db.transaction(() => {
        for (const row of rows) insert.run({ account, id: row.id, row_hash: row.hash, json: row.json });
      });
    },

    /** Whether the inventories may be loaded straight into their table (loadInventories): no credit is cached. */
    inventoriesLoadable(): boolean {
      return db.prepared(anyCredit).first({}) === undefined;
    },

    /**
     * A first sync's inventories, in one transaction: `fill` puts every credit of the changed
     * accounts straight into the empty table (each written once, not staged, read back and written
     * again) and answers those accounts; then their search entries, indexes, summaries and the
     * resource's success, as commitInventories writes them. A throw rolls all of it back.
     */
    loadInventories(
      fill: (
        put: (account: InventoryAccount, row: { id: string; hash: string; json: string; columns: CreditColumns }) => void,
      ) => readonly ChangedInventory[],
    ): { written: number; deleted: number } {
      return db.transaction(() => {
        let written = 0;
        withIndexesBuiltAfter(db, 'inventory_credits', '1', () => {
          const insert = db.prepared(replaceCredit);
          const changed = fill((account, row) => insert.run({ account, id: row.id, ...row.columns, row_hash: row.hash, json: row.json }));
          for (const change of changed) {
            const values = { account: change.account };
            db.prepared(ACCOUNT_SEARCH[change.account].putNew).run({ ...values, before: 0 });
            written += db.prepared(countCredits).first(values)?.n ?? 0;
            putAccountSummary(change);
          }
        });
        if (written > 0) db.run(analyzeCredits());
        markSuccess();
        return { written, deleted: 0 };
      });
    },

    /**
     * Swaps in every changed account at once and records the success of the inventories resource.
     * Accounts not listed (their answer did not change) are not touched.
     */
    commitInventories(changed: readonly ChangedInventory[]): { written: number; deleted: number } {
      return db.transaction(() => {
        let written = 0;
        let deleted = 0;
        // Into an empty table (the first sync) its indexes are built once the credits are in.
        withIndexesBuiltAfter(db, 'inventory_credits', '1', () => {
          for (const change of changed) {
            const result = applyAccount(change);
            written += result.written;
            deleted += result.deleted;
          }
        });
        if (written + deleted > 0) db.run(analyzeCredits());
        markSuccess();
        return { written, deleted };
      });
    },
  };
}
