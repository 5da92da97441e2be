// The inventories as a feed snapshot loads them into an empty cache (cache/snapshot-writers.ts).
import type { InventoryAccount } from '@shared/desk/api';
import type { InventorySummary, OrganizationSummary } from '@shared/registry/resources';
import type { Q } from '@desk/cache/writers';

export const dropAccountCredits = (v: { account: InventoryAccount }, q: Q) =>
  q.deleteFrom('inventory_credits').where('account', '=', v.account);

export interface SnapshotInventory {
  account: InventoryAccount;
  summary: InventorySummary;
  organization: OrganizationSummary;
  /** Each credit's id, JSON (as validated) and its hash, made one at a time as they are written. */
  credits: Iterable<{ id: string; json: string; hash: string }>;
  /** The answer's hash, once every credit has been read. */
  answerHash: () => string;
}
