// The retirements list's rows and their search entries: swapped in from staging
// (commitRetirements), loaded straight into an empty table (beginRetirementsLoad), written one at a
// time after a finalize (putRetirement), and removed when the changes feed says so.
import { sql, type Insertable } from 'kysely';
import type { Retirement } from '@shared/registry/resources';
import type { CacheTables } from '@desk/cache/schema';
import type { CacheResource } from '@desk/cache/types';
import { hashJson, retirementColumns } from '@desk/cache/rows';
import type { CommitOptions, Q, WriterBase } from '@desk/cache/writers';
import { buildIndexes } from '@desk/cache/bulk-indexes';

type NewRetirement = Omit<Insertable<CacheTables['retirements']>, 'rowid'>;

const retirementRowid = (v: { id: string }, q: Q) => q.selectFrom('retirements').select('rowid').where('id', '=', v.id);
/** Every column of a retirement row but its key (id): what an insert adds to the key and an update sets. */
const retirementFields = (v: NewRetirement) => ({
  created_at: v.created_at,
  is_claimed: v.is_claimed,
  amount: v.amount,
  beneficiary: v.beneficiary,
  reason: v.reason,
  organization_name: v.organization_name,
  project_id: v.project_id,
  project_name: v.project_name,
  project_num: v.project_num,
  serialization: v.serialization,
  vintage: v.vintage,
  row_hash: v.row_hash,
  json: v.json,
});
export const insertRetirement = (v: NewRetirement, q: Q) => q.insertInto('retirements').values({ id: v.id, ...retirementFields(v) });
const updateRetirement = (v: NewRetirement & { rowid: number }, q: Q) =>
  q.updateTable('retirements').set(retirementFields(v)).where('rowid', '=', v.rowid);
const dropRetirement = (v: { rowid: number }, q: Q) => q.deleteFrom('retirements').where('rowid', '=', v.rowid);
const dropRetirementSearch = (v: { rowid: number }, q: Q) => q.deleteFrom('retirements_fts').where('rowid', '=', v.rowid);
export const putRetirementSearch = (v: Insertable<CacheTables['retirements_fts']>, q: Q) =>
  q
    .insertInto('retirements_fts')
    .values({ rowid: v.rowid, beneficiary: v.beneficiary, serialization: v.serialization, project: v.project });
const goneRetirements = (q: Q) =>
  q
    .selectFrom('retirements')
    .select('rowid')
    .where('id', 'not in', q.selectFrom('staging').select('id').where('resource', '=', sql.lit<CacheResource>('retirements')));
const dropGoneRetirementSearch = (_v: Record<string, never>, q: Q) =>
  q.deleteFrom('retirements_fts').where('rowid', 'in', goneRetirements(q));
const dropGoneRetirements = (_v: Record<string, never>, q: Q) => q.deleteFrom('retirements').where('rowid', 'in', goneRetirements(q));

/**
 * Search entries made by SQLite from the retirements' rows, many per statement: the text
 * writeRetirement puts row by row (project name and number are never NULL; a redacted one's
 * beneficiary and serialization are).
 */
const searchOfRows = (q: Q) =>
  q
    .selectFrom('retirements')
    .select((eb) => [
      'rowid',
      eb.fn.coalesce('beneficiary', sql.lit('')).as('beneficiary'),
      eb.fn.coalesce('serialization', sql.lit('')).as('serialization'),
      sql<string>`project_name || ' ' || project_num`.as('project'),
    ]);
const SEARCH_COLUMNS = ['rowid', 'beneficiary', 'serialization', 'project'] as const;
/** The search entries of every retirement, in one statement (a pass loaded into an empty table). */
const putAllRetirementSearch = (_v: Record<string, never>, q: Q) =>
  q.insertInto('retirements_fts').columns(SEARCH_COLUMNS).expression(searchOfRows(q));
/**
 * The search entries of every retirement that has none: those a feed snapshot's load left to make
 * after its commit (deferred-indexes.ts), but not one written through meanwhile, which has its own.
 */
export const putMissingRetirementSearch = (q: Q) =>
  q
    .insertInto('retirements_fts')
    .columns(SEARCH_COLUMNS)
    .expression(searchOfRows(q).where('rowid', 'not in', q.selectFrom('retirements_fts').select('rowid')));

export function createRetirementWriters(base: WriterBase) {
  const { db, markSuccess, replacePageHashes, changedRows, refreshPlannerStatistics, beginLoad } = base;

  /**
   * A row of a searchable table is inserted, or updated in place so it keeps its rowid (which its
   * search entry shares) and its old search entry dropped; either way the caller then writes the
   * entry anew.
   */
  function writeRetirement(row: { id: string; row_hash: string; json: string }): void {
    const columns = retirementColumns(JSON.parse(row.json) as Retirement);
    const values = { id: row.id, ...columns, row_hash: row.row_hash, json: row.json };
    const existing = db.prepared(retirementRowid).first({ id: row.id });
    let rowid: number;
    if (existing) {
      rowid = existing.rowid;
      db.prepared(updateRetirement).run({ ...values, rowid });
      db.prepared(dropRetirementSearch).run({ rowid });
    } else {
      rowid = Number(db.prepared(insertRetirement).run(values).lastInsertRowid);
    }
    db.prepared(putRetirementSearch).run({
      rowid,
      beneficiary: columns.beneficiary ?? '',
      serialization: columns.serialization ?? '',
      project: `${columns.project_name} ${columns.project_num}`,
    });
  }

  return {
    commitRetirements(options: CommitOptions): { written: number; deleted: number } {
      const resource: CacheResource = 'retirements';
      return db.transaction(() => {
        let written = 0;
        for (const row of changedRows(resource)) {
          writeRetirement(row);
          written++;
        }
        let deleted = 0;
        if (options.full) {
          db.prepared(dropGoneRetirementSearch).run({});
          deleted = db.prepared(dropGoneRetirements).run({}).changes;
        }
        if (written + deleted > 0) refreshPlannerStatistics('retirements');
        base.dropStaging(resource);
        replacePageHashes(resource, options.pageHashes, options.full);
        markSuccess(resource, { full: options.full, watermark: options.watermark ?? null, total: options.total ?? null });
        return { written, deleted };
      });
    },

    /**
     * A full pass of retirements into an empty table (the first sync): rows go straight into the
     * table inside ONE transaction held open for the pass (BEGIN IMMEDIATE … COMMIT, across the
     * page downloads), as a feed snapshot's load does (snapshot-writers.ts), rather than staged and
     * swapped in: each row is written once, not three times (staging, its read-back, the table),
     * with the secondary indexes dropped and built once at the end (a sort, not 100,000 inserts at
     * random places in each of seven) and the search entries made by one statement. Readers see
     * the empty table until it commits; a pass that fails rolls back to it. The rows, hashes,
     * search entries, page hashes and sync_state are those commitRetirements writes.
     */
    beginRetirementsLoad() {
      const resource: CacheResource = 'retirements';
      const indexes = beginLoad(resource, 'retirements');
      // A retirement listed again (the list moved during the pass) replaces its first copy, as staging does.
      const rowids = new Map<string, number>();
      return {
        put(retirement: Retirement, json: string, hash: string): void {
          const previous = rowids.get(retirement.id);
          if (previous !== undefined) db.prepared(dropRetirement).run({ rowid: previous });
          const columns = retirementColumns(retirement);
          const values = { id: retirement.id, ...columns, row_hash: hash, json };
          rowids.set(retirement.id, Number(db.prepared(insertRetirement).run(values).lastInsertRowid));
        },
        commit(options: Omit<CommitOptions, 'full'>): { written: number; deleted: number } {
          db.prepared(putAllRetirementSearch).run({});
          buildIndexes(db, indexes);
          const written = rowids.size;
          if (written > 0) refreshPlannerStatistics('retirements');
          replacePageHashes(resource, options.pageHashes, true);
          markSuccess(resource, { full: true, watermark: options.watermark ?? null, total: options.total ?? null });
          db.raw.exec('COMMIT');
          return { written, deleted: 0 };
        },
        rollback(): void {
          if (db.raw.inTransaction) db.raw.exec('ROLLBACK');
        },
      };
    },

    /**
     * Writes one retirement the registry just answered (after a finalize): incremental syncs read
     * the newest retirements only, so an older one that changed would otherwise wait for the next
     * full pass.
     */
    putRetirement(retirement: Retirement): void {
      const json = JSON.stringify(retirement);
      db.transaction(() => writeRetirement({ id: retirement.id, row_hash: hashJson(json), json }));
    },

    /** Removes the listed retirements (and their search entries): the feed says they left the app's view. */
    removeRetirements(ids: readonly string[]): number {
      let deleted = 0;
      for (const id of ids) {
        const row = db.prepared(retirementRowid).first({ id });
        if (!row) continue;
        db.prepared(dropRetirementSearch).run({ rowid: row.rowid });
        deleted += db.run(db.q.deleteFrom('retirements').where('rowid', '=', row.rowid)).changes;
      }
      return deleted;
    },
  };
}
