// The inventories as a feed snapshot loads them into an empty cache (cache/snapshot-writers.ts).
import { INVENTORY_ACCOUNTS, type InventoryAccount } from '@shared/desk/api';
import type { InventorySummary, OrganizationSummary } from '@shared/registry/resources';
import type { Q } from '@desk/cache/writers';
import { hashJson, hashJsonBytes } from '@desk/cache/rows';
import type { PreparedItem } from '@desk/sync/worker/page-prep';
import type { FeedPage, LoadBase } from '@desk/resources/feed-part';
import { ACCOUNT_SEARCH, highestRowid, putSummary } from './writers';
import { creditColumns, insertCredit, type CreditColumns } from './credit-rows';
import { inventoryItem, type FeedInventory } from './feed-item';

export const dropAccountCredits = (v: { account: InventoryAccount }, q: Q) =>
  q.deleteFrom('inventory_credits').where('account', '=', v.account);

export interface SnapshotInventory {
  account: InventoryAccount;
  summary: InventorySummary;
  organization: OrganizationSummary;
  /** Each credit's id, columns, JSON (as validated) and its hash, made one at a time as they are written. */
  credits: Iterable<{ id: string; columns: CreditColumns; json: string; hash: string }>;
  /** The answer's hash, once every credit has been read. */
  answerHash: () => string;
}

/** An inventory item as the load takes it: its credits parsed, checked and written one by one. */
function snapshotInventory(account: InventoryAccount, inventory: FeedInventory): SnapshotInventory {
  // An account's answer can be tens of MB at scale: its hash is the staged path's (of the answer's text as sent).
  function* credits() {
    for (const credit of inventory.credits()) {
      const json = JSON.stringify(credit);
      yield { id: credit.id, columns: creditColumns(credit), json, hash: hashJson(json) };
    }
  }
  return {
    account,
    summary: inventory.summary,
    organization: inventory.organization,
    credits: credits(),
    // (the hash of the answer's UTF-8 bytes is the hash of its text: hashJson hashes UTF-8)
    answerHash: () => hashJsonBytes(inventory.bytes),
  };
}

/**
 * The search entries made in one piece of idle work: the idle work runs while the next page is
 * awaited, and a page that arrives meanwhile waits for the piece. An account's entries in one
 * statement took 0.7 s at --scale 100 (its 60,000 credits), holding the page and the requests the
 * sync's thread had yet to send; about 50 ms a piece.
 */
const SEARCH_PIECE_ROWS = 5_000;

/** Each account's whole answer loaded (an account sent again replaces the first); search entries made after. */
export function loadInventories(base: LoadBase) {
  const { db, now } = base;
  const insert = db.prepared(insertCredit);
  let count = 0;
  // Accounts whose credits' search entries are still to make: their rows in (before, upTo].
  const unsearched = new Map<InventoryAccount, { before: number; upTo: number }>();
  const putAccountSearch = (account: InventoryAccount) => {
    const rows = unsearched.get(account);
    if (rows === undefined) return;
    db.prepared(ACCOUNT_SEARCH[account].putNew).run({ account, before: rows.before });
    unsearched.delete(account);
  };
  /** The next SEARCH_PIECE_ROWS of the account's entries (the idle work's piece). */
  const putSearchPiece = (account: InventoryAccount) => {
    const rows = unsearched.get(account);
    if (rows === undefined) return;
    const upTo = Math.min(rows.before + SEARCH_PIECE_ROWS, rows.upTo);
    db.prepared(ACCOUNT_SEARCH[account].putBetween).run({ account, before: rows.before, upTo });
    if (upTo >= rows.upTo) unsearched.delete(account);
    else rows.before = upTo;
  };

  function inventory(answer: SnapshotInventory): void {
    const { account } = answer;
    db.prepared(ACCOUNT_SEARCH[account].dropReplaced).run({ account });
    count -= db.prepared(dropAccountCredits).run({ account }).changes;
    const before = db.prepared(highestRowid).first({})?.n ?? 0;
    let credits = 0;
    for (const credit of answer.credits) {
      insert.run({ account, id: credit.id, ...credit.columns, row_hash: credit.hash, json: credit.json });
      credits++;
    }
    count += credits;
    // Its search entries are made by `idleWork` or `finish` (one sent before, still to make, had rows now gone).
    unsearched.set(account, { before, upTo: db.prepared(highestRowid).first({})?.n ?? before });
    db.prepared(putSummary).run({
      account,
      json: JSON.stringify({ summary: answer.summary, organization: answer.organization }),
      at: now(),
      hash: answer.answerHash(),
      count: credits,
    });
  }

  return {
    inventory,
    take(item: PreparedItem, page: FeedPage): boolean {
      if (item.type !== 'inventory') return false;
      // Read from the page's bytes credit by credit as it is written (tens of MB at --scale 100).
      const read = inventoryItem(page.bytes!, item.span, item.index);
      if (!read) return false;
      if (INVENTORY_ACCOUNTS.includes(read.account)) inventory(snapshotInventory(read.account, read.inventory));
      return true;
    },
    idleWork(): (() => void) | null {
      for (const account of unsearched.keys()) return () => putSearchPiece(account);
      return null;
    },
    finish() {
      for (const account of [...unsearched.keys()]) putAccountSearch(account);
      base.markSuccess('inventories');
      return { inventories: count };
    },
  };
}
