// Writing the registry accounts' inventories (migration 0004). A sync stages each changed account's
// credits in `inventory_staging`, in batches, with JSON only for credits that are new or changed;
// then one transaction swaps every changed account in, together with the accounts' summaries and
// sync_state: a reader sees the previous inventories or the new ones, and a run that fails
// half-way leaves the previous ones exactly as they were.
import type { InventoryAccount } from '../../../../shared/desk/api';
import type { InventorySummary, OrganizationSummary } from '../../../../shared/registry/resources';
import type { SqliteDatabase } from '../../db/database';
import { INVENTORY_FTS_COLUMNS, INVENTORY_FTS_VALUES_SQL, inventoryFtsTable } from './inventory-fts';
import type { StagedRow } from './types';

/** An account whose answer changed since the last sync: its staged credits and its envelope. */
export interface ChangedInventory {
  account: InventoryAccount;
  /** Hash of the registry's answer text: the next sync skips an answer with the same hash. */
  answerHash: string;
  summary: InventorySummary;
  organization: OrganizationSummary;
  creditCount: number;
}

export function createInventoryWriters(db: SqliteDatabase<unknown>, now: () => number, markSuccess: () => void) {
  function discardInventoryStaging(): void {
    db.prepare('DELETE FROM inventory_staging').run();
  }

  /** Swaps in one account's staged credits; returns the credits written (new or changed) and removed. */
  function applyAccount(change: ChangedInventory): { written: number; deleted: number } {
    const params = { account: change.account };
    const fts = inventoryFtsTable(change.account);
    // Rows to replace: every cached credit of the account except those staged as unchanged
    // (json NULL): the ones no longer held and the ones whose new copy is staged.
    const replaced = `SELECT c.rowid FROM inventory_credits c WHERE c.account = @account
      AND NOT EXISTS (SELECT 1 FROM inventory_staging s WHERE s.account = @account AND s.id = c.id AND s.json IS NULL)`;
    const deleted = db
      .prepare(
        `SELECT count(*) FROM inventory_credits c WHERE c.account = @account
         AND NOT EXISTS (SELECT 1 FROM inventory_staging s WHERE s.account = @account AND s.id = c.id)`,
      )
      .pluck()
      .get(params) as number;
    db.prepare(`DELETE FROM ${fts} WHERE rowid IN (${replaced})`).run(params);
    db.prepare(`DELETE FROM inventory_credits WHERE rowid IN (${replaced})`).run(params);
    // New rows get rowids above every current one: that is how their search entries are found.
    const before = db.prepare('SELECT coalesce(max(rowid), 0) FROM inventory_credits').pluck().get() as number;
    // The columns come from the staged JSON in SQL: no credit is parsed again in JS.
    const written = db
      .prepare(
        `INSERT INTO inventory_credits (account, id, project_id, project_name, project_num, serialization, vintage, type,
           amount, supply, unit, token_id, token_address, row_hash, json)
         SELECT @account, s.id, s.json ->> '$.project.id', s.json ->> '$.project.fullName', s.json ->> '$.project.num',
           s.json ->> '$.serialization', s.json ->> '$.vintage', s.json ->> '$.type', s.json ->> '$.amount', s.json ->> '$.supply',
           s.json ->> '$.unit', s.json ->> '$.tokenId', s.json ->> '$.tokenAddress', s.row_hash, s.json
         FROM inventory_staging s WHERE s.account = @account AND s.json IS NOT NULL ORDER BY s.rowid`,
      )
      .run(params).changes;
    db.prepare(
      `INSERT INTO ${fts} (rowid, ${INVENTORY_FTS_COLUMNS})
       SELECT rowid, ${INVENTORY_FTS_VALUES_SQL} FROM inventory_credits WHERE account = @account AND rowid > @before`,
    ).run({ ...params, before });
    db.prepare(
      `INSERT INTO inventories (account, json, fetched_at, answer_hash, credit_count) VALUES (@account, @json, @at, @hash, @count)
       ON CONFLICT (account) DO UPDATE SET json = excluded.json, fetched_at = excluded.fetched_at, answer_hash = excluded.answer_hash,
         credit_count = excluded.credit_count`,
    ).run({
      account: change.account,
      json: JSON.stringify({ summary: change.summary, organization: change.organization }),
      at: now(),
      hash: change.answerHash,
      count: change.creditCount,
    });
    db.prepare('DELETE FROM inventory_staging WHERE account = @account').run(params);
    return { written, deleted };
  }

  return {
    /** Starts collecting inventories afresh (credits staged by an interrupted run are dropped). */
    beginInventoryStaging: discardInventoryStaging,
    /** Drops what a failed run staged (its previous inventories stay as they were). */
    discardInventoryStaging,

    /** Adds a batch of an account's credits to the staging area, in one transaction. */
    stageInventoryCredits(account: InventoryAccount, rows: readonly StagedRow[]): void {
      const insert = db.prepare('INSERT OR REPLACE INTO inventory_staging (account, id, row_hash, json) VALUES (?, ?, ?, ?)');
      db.transaction(() => {
        for (const row of rows) insert.run(account, row.id, row.hash, row.json);
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
        for (const change of changed) {
          const result = applyAccount(change);
          written += result.written;
          deleted += result.deleted;
        }
        // Planner statistics for the new rows (bounded by analysis_limit: milliseconds).
        if (written + deleted > 0) db.raw.exec('ANALYZE inventory_credits');
        markSuccess();
        return { written, deleted };
      });
    },
  };
}
