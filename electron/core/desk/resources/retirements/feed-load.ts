// The retirements as a feed snapshot loads them into an empty cache (cache/snapshot-writers.ts).
import { dropPageHashes, type Q } from '@desk/cache/writers';
import { deferSearchEntries } from '@desk/cache/deferred-indexes';
import type { PreparedItem } from '@desk/sync/worker/page-prep';
import type { LoadBase } from '@desk/resources/feed-part';
import { insertRetirement, putMissingRetirementSearch } from './writers';
import type { RetirementColumns } from '@desk/cache/rows';

const dropRetirement = (v: { rowid: number }, q: Q) => q.deleteFrom('retirements').where('rowid', '=', v.rowid);

/** A retirement as the load takes it, its columns made beforehand. */
export interface LoadedRetirement {
  id: string;
  json: string;
  hash: string;
  columns: RetirementColumns;
}

/**
 * The retirements loaded as they arrive (one sent again replaces the first copy). Their search
 * entries are left to be made after the load's commit, in one statement (deferred-indexes.ts): the
 * retirement pages come last and keep the sync's thread busy, and at --scale 100 the entries were
 * a second of it there (bench/README.md, sync).
 */
export function loadRetirements(base: LoadBase) {
  const { db } = base;
  const rowids = new Map<string, number>();
  let count = 0;

  function retirement(row: LoadedRetirement): void {
    const previous = rowids.get(row.id);
    if (previous !== undefined) db.prepared(dropRetirement).run({ rowid: previous });
    else count++;
    const rowid = Number(
      db.prepared(insertRetirement).run({ id: row.id, ...row.columns, row_hash: row.hash, json: row.json }).lastInsertRowid,
    );
    rowids.set(row.id, rowid);
  }

  return {
    retirement,
    take(item: PreparedItem): boolean {
      if (item.type !== 'retirement') return false;
      retirement(item);
      return true;
    },
    finish() {
      if (rowids.size > 0) {
        const fill = putMissingRetirementSearch(db.q).compile();
        // Kept as text and run as it is after the commit, so it binds nothing.
        if (fill.parameters.length > 0) throw new Error("the retirements' search fill binds parameters");
        deferSearchEntries(db, { table: 'retirements_fts', of: 'retirements', fill: fill.sql });
      }
      db.prepared(dropPageHashes).run({ resource: 'retirements' });
      base.markSuccess('retirements');
      return { retirements: count };
    },
  };
}
