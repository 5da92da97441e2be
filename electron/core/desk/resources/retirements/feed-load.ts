// The retirements as a feed snapshot loads them into an empty cache (cache/snapshot-writers.ts).
import { dropPageHashes, type Q } from '@desk/cache/writers';
import type { PreparedItem } from '@desk/sync/worker/page-prep';
import type { LoadBase } from '@desk/resources/feed-part';
import { insertRetirement, putRetirementSearchBetween } from './writers';
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

/**
 * The retirements loaded as they arrive (one sent again replaces the first copy); their search
 * entries are made together, by `idleWork` or `finish` (putRetirementSearchBetween).
 */
export function loadRetirements(base: LoadBase) {
  const { db } = base;
  const rowids = new Map<string, number>();
  const search = db.prepared(putRetirementSearchBetween);
  let count = 0;
  // The retirements that have their search entries (rowids up to `searched`), the highest loaded so far.
  let searched = 0;
  let highest = 0;
  const putSearch = (upTo: number) => {
    if (upTo > searched) search.run({ after: searched, upTo });
    searched = Math.max(searched, upTo);
  };

  function retirement(row: LoadedRetirement): void {
    // A retirement sent again whose first copy has its search entry (or whose rowid is one that had) is searched now.
    const previous = rowids.get(row.id);
    if (previous !== undefined) {
      if (previous <= searched) db.prepared(dropRetirementSearch).run({ rowid: previous });
      db.prepared(dropRetirement).run({ rowid: previous });
    } else count++;
    const rowid = Number(
      db.prepared(insertRetirement).run({ id: row.id, ...row.columns, row_hash: row.hash, json: row.json }).lastInsertRowid,
    );
    rowids.set(row.id, rowid);
    if (rowid <= searched) search.run({ after: rowid - 1, upTo: rowid });
    highest = Math.max(highest, rowid);
  }

  return {
    retirement,
    take(item: PreparedItem): boolean {
      if (item.type !== 'retirement') return false;
      retirement(item);
      return true;
    },
    idleWork(): (() => void) | null {
      if (highest <= searched) return null;
      const upTo = highest;
      return () => putSearch(upTo);
    },
    finish() {
      putSearch(highest);
      db.prepared(dropPageHashes).run({ resource: 'retirements' });
      base.markSuccess('retirements');
      return { retirements: count };
    },
  };
}
