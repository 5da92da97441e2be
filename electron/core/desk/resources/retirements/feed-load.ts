// The retirements as a feed snapshot loads them into an empty cache (cache/snapshot-writers.ts).
import type { Q } from '@desk/cache/writers';
import type { RetirementColumns } from '@desk/cache/rows';

export const dropRetirement = (v: { rowid: number }, q: Q) => q.deleteFrom('retirements').where('rowid', '=', v.rowid);
export const dropRetirementSearch = (v: { rowid: number }, q: Q) => q.deleteFrom('retirements_fts').where('rowid', '=', v.rowid);

/** A retirement as the load takes it, its columns made beforehand. */
export interface LoadedRetirement {
  id: string;
  json: string;
  hash: string;
  columns: RetirementColumns;
}
