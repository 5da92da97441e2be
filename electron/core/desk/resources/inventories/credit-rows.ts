// An inventory credit's row as a first sync's loads write it (feed-load.ts, writers.ts's
// loadInventories): its columns taken from the parsed credit, and the statements that insert it.
import type { InventoryAccount } from '@shared/desk/api';
import type { InventoryCredit } from '@shared/registry/resources';
import type { Insertable } from 'kysely';
import type { CacheTables } from '@desk/cache/schema';
import type { Q } from '@desk/cache/writers';

type CreditValues = { account: InventoryAccount; id: string; row_hash: string; json: string };

/** What a credit contributes to its row besides the account, id, hash and JSON. */
export type CreditColumns = Omit<Insertable<CacheTables['inventory_credits']>, 'rowid' | 'account' | 'id' | 'row_hash' | 'json'>;

/**
 * A validated credit's columns: the values SQLite reads from a staged credit's JSON (insertStaged,
 * `->>`), taken from the parsed credit instead of parsed again. Every member is required by the
 * contract and of its column's type (text, or a number in a REAL column), so both answer the same.
 */
export function creditColumns(credit: InventoryCredit): CreditColumns {
  return {
    project_id: credit.project.id,
    project_name: credit.project.fullName,
    project_num: credit.project.num,
    serialization: credit.serialization,
    vintage: credit.vintage,
    type: credit.type,
    amount: credit.amount,
    supply: credit.supply,
    unit: credit.unit,
    token_id: credit.tokenId,
    token_address: credit.tokenAddress,
  };
}

const creditRow = (v: CreditValues & CreditColumns): Insertable<CacheTables['inventory_credits']> => ({
  account: v.account,
  id: v.id,
  project_id: v.project_id,
  project_name: v.project_name,
  project_num: v.project_num,
  serialization: v.serialization,
  vintage: v.vintage,
  type: v.type,
  amount: v.amount,
  supply: v.supply,
  unit: v.unit,
  token_id: v.token_id,
  token_address: v.token_address,
  row_hash: v.row_hash,
  json: v.json,
});
/**
 * A parsed credit written straight into its table (a first sync's load), its columns given: at
 * --scale 100, 47,871 credits took 0.46-0.54 s of CPU this way, against 0.78-0.85 s with SQLite
 * reading each column from the credit's JSON.
 */
export const insertCredit = (v: CreditValues & CreditColumns, q: Q) => q.insertInto('inventory_credits').values(creditRow(v));
/** A credit listed twice replaces its first copy, as staging does (the seed interface's answers). */
export const replaceCredit = (v: CreditValues & CreditColumns, q: Q) => q.replaceInto('inventory_credits').values(creditRow(v));
