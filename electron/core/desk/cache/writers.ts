// Writing into the cache. List resources are collected page by page into `staging` and swapped in
// by one transaction at the end of a run (commit*), together with their sync_state and page hashes:
// a reader sees either the previous resource or the new one, never a mix, and a run that dies
// half-way leaves the previous data (and page hashes) exactly as they were.
import { sql, type Insertable, type Kysely, type NotNull } from 'kysely';
import type { SqliteDatabase } from '@platform/db/database';
import type { CacheTables } from './schema';
import type { Organization, Project, Reservation, Retirement, WarehouseInventoryCredit } from '@shared/registry/resources';
import { hashJson, projectColumns, projectSearchText, retirementColumns } from './rows';
import { createInventoryWriters } from '@desk/resources/inventories/writers';
import { checkpointInBackground, holdAutocheckpoints } from './deferred-checkpoint';
import { secondaryIndexesOf, withIndexesBuiltAfter } from './bulk-indexes';
import type { CacheResource, ProjectScope, StagedRow } from './types';

export interface PageHash {
  page: number;
  hash: string;
  ids: string[];
}

export interface CommitOptions {
  /** Rows the run did not see are deleted (a full pass); false for an incremental pass. */
  full: boolean;
  pageHashes: PageHash[];
  watermark?: string | null;
  total?: number | null;
}

type Q = Kysely<CacheTables>;
type Db = SqliteDatabase<CacheTables>;
type RetirementRow = Omit<Insertable<CacheTables['retirements']>, 'rowid'>;
type ProjectRow = Omit<Insertable<CacheTables['projects']>, 'rowid'>;

// The writers' statements, compiled once per connection (SqliteDatabase.prepared): a sync runs
// them for every row.
export const syncSuccess = (
  v: { resource: CacheResource; at: number; fullAt: number | null; watermark: string | null; total: number | null },
  q: Q,
) =>
  q
    .insertInto('sync_state')
    .values({
      resource: v.resource,
      last_success_at: v.at,
      last_attempt_at: v.at,
      last_error: null,
      last_full_at: v.fullAt,
      watermark: v.watermark,
      total: v.total,
    })
    .onConflict((oc) =>
      oc.column('resource').doUpdateSet((eb) => ({
        last_success_at: eb.ref('excluded.last_success_at'),
        last_attempt_at: eb.ref('excluded.last_attempt_at'),
        last_error: null,
        last_full_at: eb.fn.coalesce('excluded.last_full_at', 'sync_state.last_full_at'),
        watermark: eb.fn.coalesce('excluded.watermark', 'sync_state.watermark'),
        total: eb.fn.coalesce('excluded.total', 'sync_state.total'),
      })),
    );
const syncFailure = (v: { resource: CacheResource; at: number; message: string }, q: Q) =>
  q
    .insertInto('sync_state')
    .values({ resource: v.resource, last_attempt_at: v.at, last_error: v.message })
    .onConflict((oc) =>
      oc
        .column('resource')
        .doUpdateSet((eb) => ({ last_attempt_at: eb.ref('excluded.last_attempt_at'), last_error: eb.ref('excluded.last_error') })),
    );
export const dropPageHashes = (v: { resource: CacheResource }, q: Q) => q.deleteFrom('page_hashes').where('resource', '=', v.resource);
const putPageHash = (v: { resource: CacheResource; page: number; hash: string; ids: string }, q: Q) =>
  q.replaceInto('page_hashes').values({ resource: v.resource, page: v.page, hash: v.hash, ids: v.ids });
const dropStaging = (v: { resource: CacheResource }, q: Q) => q.deleteFrom('staging').where('resource', '=', v.resource);
const putStaging = (v: { resource: CacheResource; id: string; row_hash: string; json: string | null }, q: Q) =>
  q.replaceInto('staging').values({ resource: v.resource, id: v.id, row_hash: v.row_hash, json: v.json });
const stagedHashes = (v: { resource: CacheResource }, q: Q) =>
  q.selectFrom('staging').select(['id', 'row_hash']).where('resource', '=', v.resource);
const CHUNK = 500;
const stagedChunk = (v: { resource: CacheResource; after: string }, q: Q) =>
  q
    .selectFrom('staging')
    .select(['id', 'row_hash', 'json'])
    .where('resource', '=', v.resource)
    .where('json', 'is not', null)
    .where('id', '>', v.after)
    .orderBy('id')
    .limit(CHUNK)
    .$narrowType<{ json: NotNull }>();

const retirementRowid = (v: { id: string }, q: Q) => q.selectFrom('retirements').select('rowid').where('id', '=', v.id);
/** Every column of a retirement row but its key (id): what an insert adds to the key and an update sets. */
const retirementFields = (v: RetirementRow) => ({
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
export const insertRetirement = (v: RetirementRow, q: Q) => q.insertInto('retirements').values({ id: v.id, ...retirementFields(v) });
const updateRetirement = (v: RetirementRow & { rowid: number }, q: Q) =>
  q.updateTable('retirements').set(retirementFields(v)).where('rowid', '=', v.rowid);
const dropRetirement = (v: { rowid: number }, q: Q) => q.deleteFrom('retirements').where('rowid', '=', v.rowid);
const dropRetirementSearch = (v: { rowid: number }, q: Q) => q.deleteFrom('retirements_fts').where('rowid', '=', v.rowid);
export const putRetirementSearch = (v: Insertable<CacheTables['retirements_fts']>, q: Q) =>
  q
    .insertInto('retirements_fts')
    .values({ rowid: v.rowid, beneficiary: v.beneficiary, serialization: v.serialization, project: v.project });

const projectRowid = (v: { scope: ProjectScope; id: string }, q: Q) =>
  q.selectFrom('projects').select('rowid').where('scope', '=', v.scope).where('id', '=', v.id);
/** Every column of a project row but its key (scope, id): what an insert adds to the key and an update sets. */
const projectFields = (v: ProjectRow) => ({
  num: v.num,
  num_sort: v.num_sort,
  full_name: v.full_name,
  short_description: v.short_description,
  status: v.status,
  country_code: v.country_code,
  country_name: v.country_name,
  sector_id: v.sector_id,
  sector_title: v.sector_title,
  methodology_id: v.methodology_id,
  methodology_title: v.methodology_title,
  type_id: v.type_id,
  type_title: v.type_title,
  proponents: v.proponents,
  start_date: v.start_date,
  row_hash: v.row_hash,
  json: v.json,
});
export const insertProject = (v: ProjectRow, q: Q) => q.insertInto('projects').values({ scope: v.scope, id: v.id, ...projectFields(v) });
const updateProject = (v: ProjectRow & { rowid: number }, q: Q) =>
  q.updateTable('projects').set(projectFields(v)).where('rowid', '=', v.rowid);

const goneProjects = (v: { scope: ProjectScope; resource: CacheResource }, q: Q) =>
  q
    .selectFrom('projects')
    .select('rowid')
    .where('scope', '=', v.scope)
    .where('id', 'not in', q.selectFrom('staging').select('id').where('resource', '=', v.resource));
/** Each project scope's FTS table (migration 0003), and its statements. */
function projectSearch<T extends 'projects_public_fts' | 'projects_internal_fts'>(table: T) {
  return {
    drop: (v: { rowid: number }, q: Q) => q.deleteFrom(table as 'projects_public_fts').where('rowid', '=', v.rowid),
    put: (v: Insertable<CacheTables['projects_public_fts']>, q: Q) =>
      q.insertInto(table as 'projects_public_fts').values({
        rowid: v.rowid,
        name: v.name,
        num: v.num,
        description: v.description,
        country: v.country,
        methodology: v.methodology,
        proponents: v.proponents,
      }),
    /** Drops the entries of the scope's projects that the staged run did not see. */
    dropGone: (v: { scope: ProjectScope; resource: CacheResource }, q: Q) =>
      q.deleteFrom(table as 'projects_public_fts').where('rowid', 'in', goneProjects(v, q)),
  };
}
export const PROJECT_SEARCH = { public: projectSearch('projects_public_fts'), internal: projectSearch('projects_internal_fts') };
const dropGoneProjects = (v: { scope: ProjectScope; resource: CacheResource }, q: Q) =>
  q.deleteFrom('projects').where('rowid', 'in', goneProjects(v, q));
const goneRetirements = (q: Q) =>
  q
    .selectFrom('retirements')
    .select('rowid')
    .where('id', 'not in', q.selectFrom('staging').select('id').where('resource', '=', sql.lit<CacheResource>('retirements')));
const dropGoneRetirementSearch = (_v: Record<string, never>, q: Q) =>
  q.deleteFrom('retirements_fts').where('rowid', 'in', goneRetirements(q));
const dropGoneRetirements = (_v: Record<string, never>, q: Q) => q.deleteFrom('retirements').where('rowid', 'in', goneRetirements(q));
export const markOrganizationStale = (v: { id: string }, q: Q) =>
  q.updateTable('organizations').set({ needs_refresh: 1 }).where('id', '=', v.id).where('needs_refresh', '=', 0);
export const forgetUnseen = (v: { id: string }, q: Q) => q.deleteFrom('organizations_unseen').where('id', '=', v.id);
const putUnseen = (v: { id: string; at: number }, q: Q) => q.replaceInto('organizations_unseen').values({ id: v.id, checked_at: v.at });
const dropOrganization = (v: { id: string }, q: Q) => q.deleteFrom('organizations').where('id', '=', v.id);
const replaceOrganization = (v: { id: string; full_name: string; installed: 0 | 1; json: string; at: number }, q: Q) =>
  q.replaceInto('organizations').values({ id: v.id, full_name: v.full_name, installed: v.installed, json: v.json, fetched_at: v.at });
const upsertOrganization = (v: { id: string; full_name: string; installed: 0 | 1; json: string; at: number }, q: Q) =>
  q
    .insertInto('organizations')
    .values({ id: v.id, full_name: v.full_name, installed: v.installed, json: v.json, fetched_at: v.at, needs_refresh: 0 })
    .onConflict((oc) =>
      oc.column('id').doUpdateSet((eb) => ({
        full_name: eb.ref('excluded.full_name'),
        installed: eb.ref('excluded.installed'),
        json: eb.ref('excluded.json'),
        fetched_at: eb.ref('excluded.fetched_at'),
        needs_refresh: 0,
      })),
    );
const putWarehouse = (v: Insertable<CacheTables['warehouses']>, q: Q) =>
  q.insertInto('warehouses').values({
    organization_id: v.organization_id,
    organization_name: v.organization_name,
    can_write: v.can_write,
    credits_json: v.credits_json,
    reservations_json: v.reservations_json,
    fetched_at: v.fetched_at,
  });

const upsertWarehouse = (v: Insertable<CacheTables['warehouses']>, q: Q) =>
  q
    .insertInto('warehouses')
    .values({
      organization_id: v.organization_id,
      organization_name: v.organization_name,
      can_write: v.can_write,
      credits_json: v.credits_json,
      reservations_json: v.reservations_json,
      fetched_at: v.fetched_at,
    })
    .onConflict((oc) =>
      oc.column('organization_id').doUpdateSet((eb) => ({
        organization_name: eb.ref('excluded.organization_name'),
        can_write: eb.ref('excluded.can_write'),
        credits_json: eb.ref('excluded.credits_json'),
        reservations_json: eb.ref('excluded.reservations_json'),
        fetched_at: eb.ref('excluded.fetched_at'),
      })),
    );

// Per-project answers staged by a run, swapped in.
const putStagedDetails = (v: { at: number }, q: Q) =>
  q
    .insertInto('project_details')
    .columns(['id', 'json', 'list_hash', 'fetched_at'])
    .expression(stagedAnswers(q, 'projectDetails', v.at))
    .onConflict((oc) =>
      oc.column('id').doUpdateSet((eb) => ({
        json: eb.ref('excluded.json'),
        list_hash: eb.ref('excluded.list_hash'),
        fetched_at: eb.ref('excluded.fetched_at'),
      })),
    );
const putStagedCredits = (v: { at: number }, q: Q) =>
  q
    .insertInto('project_credits')
    .columns(['project_id', 'json', 'list_hash', 'fetched_at'])
    .expression(stagedAnswers(q, 'credits', v.at))
    .onConflict((oc) =>
      oc.column('project_id').doUpdateSet((eb) => ({
        json: eb.ref('excluded.json'),
        list_hash: eb.ref('excluded.list_hash'),
        fetched_at: eb.ref('excluded.fetched_at'),
      })),
    );
const stagedAnswers = (q: Q, resource: CacheResource, at: number) =>
  q
    .selectFrom('staging')
    .select((eb) => ['id', 'json', 'row_hash', eb.val(at).as('fetched_at')])
    .where('resource', '=', sql.lit(resource))
    .where('json', 'is not', null);
// Per-project answers written straight into their empty table (a first sync: loadPerProject).
const insertDetails = (v: { id: string; json: string; list_hash: string; at: number }, q: Q) =>
  q.insertInto('project_details').values({ id: v.id, json: v.json, list_hash: v.list_hash, fetched_at: v.at });
const insertCredits = (v: { id: string; json: string; list_hash: string; at: number }, q: Q) =>
  q.insertInto('project_credits').values({ project_id: v.id, json: v.json, list_hash: v.list_hash, fetched_at: v.at });
/** A credits answer's vintages, as putStagedVintages reads them from a staged one. */
const INSERT_VINTAGES = `INSERT OR IGNORE INTO project_vintages (project_id, vintage)
  SELECT ?, json_extract(v.value, '$.vintage') FROM json_each(?, '$.vintages') v`;
const dropDetailsNotKept = (_v: Record<string, never>, q: Q) => q.deleteFrom('project_details').where('id', 'not in', keptIds(q));
const dropCreditsNotKept = (_v: Record<string, never>, q: Q) => q.deleteFrom('project_credits').where('project_id', 'not in', keptIds(q));
const dropVintagesNotKept = (_v: Record<string, never>, q: Q) => q.deleteFrom('project_vintages').where('project_id', 'not in', keptIds(q));
const dropStagedVintages = (_v: Record<string, never>, q: Q) =>
  q
    .deleteFrom('project_vintages')
    .where(
      'project_id',
      'in',
      q.selectFrom('staging').select('id').where('resource', '=', sql.lit<CacheResource>('credits')).where('json', 'is not', null),
    );
// Each staged credits answer's vintages, read from its JSON by SQLite (json_each).
const putStagedVintages = sql<never>`INSERT OR IGNORE INTO project_vintages (project_id, vintage)
  SELECT s.id, json_extract(v.value, '$.vintage') FROM staging s, json_each(s.json, '$.vintages') v
  WHERE s.resource = 'credits' AND s.json IS NOT NULL`;

// The ids a pass keeps, in a temporary table (not part of the cache's schema).
type KeepIds = { 'temp.keep_ids': { id: string } };
const keepId = (v: { id: string }, q: Q) => q.withTables<KeepIds>().insertInto('temp.keep_ids').orIgnore().values({ id: v.id });
const keptIds = (q: Q) => q.withTables<KeepIds>().selectFrom('temp.keep_ids').select('id');

/** Fills temp.keep_ids with `ids` (emptied again by `forgetKeepIds`). */
function rememberKeepIds(db: Db, ids: readonly string[]): void {
  db.raw.exec('CREATE TEMP TABLE IF NOT EXISTS keep_ids (id TEXT PRIMARY KEY) WITHOUT ROWID');
  db.raw.exec('DELETE FROM temp.keep_ids');
  const keep = db.prepared(keepId);
  for (const id of ids) keep.run({ id });
}
const forgetKeepIds = (db: Db) => db.raw.exec('DELETE FROM temp.keep_ids');

/**
 * The search entries of every retirement, in one statement: the text writeRetirement puts row by
 * row (project name and number are never NULL; a redacted one's beneficiary and serialization are).
 */
const ALL_RETIREMENT_SEARCH = `INSERT INTO retirements_fts (rowid, beneficiary, serialization, project)
  SELECT rowid, coalesce(beneficiary, ''), coalesce(serialization, ''), project_name || ' ' || project_num FROM retirements`;

/** The tables a first sync fills; all are empty before it (a feed snapshot may then be loaded directly). */
const LOADED_TABLES = ['projects', 'project_details', 'project_credits', 'retirements', 'inventory_credits'] as const;

/** SQLite's page cache during a first sync through the seed interface (KiB, as cache_size takes it). */
const FIRST_SYNC_CACHE_SIZE = -64000;

/** Whether the cache holds no registry data at all. */
export function cacheIsEmpty(db: Db): boolean {
  return LOADED_TABLES.every((table) => db.raw.prepare(`SELECT 1 FROM ${table} LIMIT 1`).get() === undefined);
}

export function createCacheWriters(db: Db, now: () => number) {
  function markSuccess(resource: CacheResource, extra: { full?: boolean; watermark?: string | null; total?: number | null } = {}) {
    const at = now();
    db.prepared(syncSuccess).run({
      resource,
      at,
      fullAt: extra.full ? at : null,
      watermark: extra.watermark ?? null,
      total: extra.total ?? null,
    });
  }

  function replacePageHashes(resource: CacheResource, pages: PageHash[], full: boolean) {
    if (full) db.prepared(dropPageHashes).run({ resource });
    const insert = db.prepared(putPageHash);
    for (const p of pages) insert.run({ resource, page: p.page, hash: p.hash, ids: JSON.stringify(p.ids) });
  }

  /**
   * Staged rows with JSON, in chunks: better-sqlite3 cannot write while a statement iterates, and
   * reading all at once would hold a whole resource's JSON in memory.
   */
  function* changedRows(resource: CacheResource): Generator<{ id: string; row_hash: string; json: string }> {
    const chunk = db.prepared(stagedChunk);
    let after = '';
    for (;;) {
      const rows = chunk.all({ resource, after });
      yield* rows;
      if (rows.length < CHUNK) return;
      after = rows[rows.length - 1]!.id;
    }
  }

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

  /**
   * Re-samples a table's index statistics (bounded by the connection's analysis_limit, so a few
   * milliseconds): without them the planner cannot tell a selective filter (one vintage) from a
   * broad one (claimed) and may walk tens of thousands of rows.
   */
  function refreshPlannerStatistics(table: 'projects' | 'retirements') {
    db.raw.exec(`ANALYZE ${table}`);
  }

  /**
   * Opens the one transaction of a full pass loaded straight into an empty table (beginProjectsLoad,
   * beginRetirementsLoad): drops what an interrupted staged run of the resource left behind, and
   * the table's secondary indexes, answered so the pass builds them again once at its end.
   */
  function beginLoad(resource: CacheResource, table: 'projects' | 'retirements'): { name: string; sql: string }[] {
    db.raw.exec('BEGIN IMMEDIATE');
    try {
      db.prepared(dropStaging).run({ resource });
      const indexes = secondaryIndexesOf(db, table);
      for (const index of indexes) db.raw.exec(`DROP INDEX "${index.name}"`);
      return indexes;
    } catch (error) {
      db.raw.exec('ROLLBACK');
      throw error;
    }
  }

  const writers = {
    /**
     * A first sync through the seed interface writes the whole cache in many transactions (staged
     * batches, then each resource's swap-in). SQLite's automatic checkpoint would copy the WAL into
     * the database file and wait for the disk every few megabytes of them (a sixth of the run's
     * time at --scale 30). Into an empty cache they are held off for the run and the WAL is
     * checkpointed once after it, in the background, as a feed snapshot's load is
     * (deferred-checkpoint.ts). Answers what ends the hold (call it once the run is over), or null
     * when the cache holds data (a re-sync writes little) or checkpoints are held already.
     */
    deferCheckpointsIfEmpty(): (() => Promise<void>) | null {
      if (!cacheIsEmpty(db) || !holdAutocheckpoints(db)) return null;
      // A larger page cache for the run: the swap-ins and index builds of whole tables otherwise
      // spill and re-read pages of the 16 MB one.
      const cacheSize = db.raw.pragma('cache_size', { simple: true }) as number;
      db.raw.pragma(`cache_size = ${FIRST_SYNC_CACHE_SIZE}`);
      return () => {
        if (db.raw.open) db.raw.pragma(`cache_size = ${cacheSize}`);
        return checkpointInBackground(db);
      };
    },

    // The registry accounts' inventories: staged per account, swapped in together (resources/inventories/writers.ts).
    ...createInventoryWriters(db, now, () => markSuccess('inventories', { full: true })),

    /** Starts collecting a resource afresh (rows staged by an interrupted run are dropped). */
    beginStaging(resource: CacheResource): void {
      db.prepared(dropStaging).run({ resource });
    },

    /** Adds one page of rows to the staging area, in one transaction. */
    stage(resource: CacheResource, rows: readonly StagedRow[]): void {
      const insert = db.prepared(putStaging);
      db.transaction(() => {
        for (const row of rows) insert.run({ resource, id: row.id, row_hash: row.hash, json: row.json });
      });
    },

    /** Row hashes of staged rows (to resume per-project fetches an earlier run already did). */
    stagedHashes(resource: CacheResource): Map<string, string> {
      const rows = db.prepared(stagedHashes).all({ resource });
      return new Map(rows.map((r) => [r.id, r.row_hash]));
    },

    commitProjects(scope: ProjectScope, options: CommitOptions): { written: number; deleted: number } {
      const resource: CacheResource = scope === 'public' ? 'projects' : 'internalProjects';
      // Each scope has its own FTS table (migration 0003): its matches are counted without a join.
      const search = PROJECT_SEARCH[scope];
      return db.transaction(() => {
        let written = 0;
        const proponents = new Set<string>();
        // Into a scope with no rows (the first sync) the table's indexes are built once the rows are in.
        withIndexesBuiltAfter(db, 'projects', `scope = '${scope}'`, () => {
          for (const row of changedRows(resource)) {
            const project = JSON.parse(row.json) as Project;
            for (const organization of project.proponents) proponents.add(organization.id);
            const columns = projectColumns(project);
            const values = { scope, id: row.id, ...columns, row_hash: row.row_hash, json: row.json };
            // Updated in place, a row keeps its rowid, which its search entry shares: the old entry goes.
            const existing = db.prepared(projectRowid).first({ scope, id: row.id });
            let rowid: number;
            if (existing) {
              rowid = existing.rowid;
              db.prepared(updateProject).run({ ...values, rowid });
              db.prepared(search.drop).run({ rowid });
            } else {
              rowid = Number(db.prepared(insertProject).run(values).lastInsertRowid);
            }
            db.prepared(search.put).run({ rowid, ...projectSearchText(project, columns) });
            written++;
          }
        });
        for (const id of proponents) {
          db.prepared(markOrganizationStale).run({ id });
          db.prepared(forgetUnseen).run({ id });
        }
        let deleted = 0;
        if (options.full) {
          db.prepared(search.dropGone).run({ scope, resource });
          deleted = db.prepared(dropGoneProjects).run({ scope, resource }).changes;
        }
        if (written + deleted > 0) refreshPlannerStatistics('projects');
        db.prepared(dropStaging).run({ resource });
        replacePageHashes(resource, options.pageHashes, options.full);
        markSuccess(resource, { full: options.full, total: options.total ?? null });
        return { written, deleted };
      });
    },

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
        db.prepared(dropStaging).run({ resource });
        replacePageHashes(resource, options.pageHashes, options.full);
        markSuccess(resource, { full: options.full, watermark: options.watermark ?? null, total: options.total ?? null });
        return { written, deleted };
      });
    },

    /** Whether a scope's list may be loaded straight into the table (beginProjectsLoad): it has no row. */
    projectsLoadable(scope: ProjectScope): boolean {
      return db.raw.prepare('SELECT 1 FROM projects WHERE scope = ? LIMIT 1').get(scope) === undefined;
    },

    /**
     * A full pass of a scope's projects into a scope with none (the first sync), as
     * beginRetirementsLoad loads retirements: rows go straight into the table, with their search
     * entries, inside one transaction held open for the pass, the table's secondary indexes built
     * once at the end. The rows, entries, page hashes, organization marks and sync_state are those
     * commitProjects writes; a pass that fails rolls back to the empty scope.
     */
    beginProjectsLoad(scope: ProjectScope) {
      const resource: CacheResource = scope === 'public' ? 'projects' : 'internalProjects';
      const search = PROJECT_SEARCH[scope];
      const indexes = beginLoad(resource, 'projects');
      // A project listed again (the list moved during the pass) replaces its first copy, as staging does.
      const rowids = new Map<string, number>();
      const proponents = new Set<string>();
      return {
        put(project: Project, json: string, hash: string): void {
          const previous = rowids.get(project.id);
          if (previous !== undefined) {
            db.prepared(search.drop).run({ rowid: previous });
            db.run(db.q.deleteFrom('projects').where('rowid', '=', previous));
          }
          for (const organization of project.proponents) proponents.add(organization.id);
          const columns = projectColumns(project);
          const rowid = Number(db.prepared(insertProject).run({ scope, id: project.id, ...columns, row_hash: hash, json }).lastInsertRowid);
          db.prepared(search.put).run({ rowid, ...projectSearchText(project, columns) });
          rowids.set(project.id, rowid);
        },
        commit(options: Omit<CommitOptions, 'full' | 'watermark'>): { written: number; deleted: number } {
          for (const index of indexes) db.raw.exec(index.sql);
          for (const id of proponents) {
            db.prepared(markOrganizationStale).run({ id });
            db.prepared(forgetUnseen).run({ id });
          }
          const written = rowids.size;
          if (written > 0) refreshPlannerStatistics('projects');
          replacePageHashes(resource, options.pageHashes, true);
          markSuccess(resource, { full: true, total: options.total ?? null });
          db.raw.exec('COMMIT');
          return { written, deleted: 0 };
        },
        rollback(): void {
          if (db.raw.inTransaction) db.raw.exec('ROLLBACK');
        },
      };
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
          db.raw.exec(ALL_RETIREMENT_SEARCH);
          for (const index of indexes) db.raw.exec(index.sql);
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

    /**
     * Swaps in per-project answers staged by a run (details or credits). `keepIds` are the projects
     * that still exist: answers of any other project are removed.
     */
    commitPerProject(resource: 'projectDetails' | 'credits', keepIds: readonly string[]): { written: number; deleted: number } {
      const at = now();
      return db.transaction(() => {
        const written = db.prepared(resource === 'projectDetails' ? putStagedDetails : putStagedCredits).run({ at }).changes;
        rememberKeepIds(db, keepIds);
        const deleted = db.prepared(resource === 'projectDetails' ? dropDetailsNotKept : dropCreditsNotKept).run({}).changes;
        if (resource === 'credits') {
          // The vintage filter and facet read project_vintages: rebuild it for what changed.
          db.prepared(dropVintagesNotKept).run({});
          db.prepared(dropStagedVintages).run({});
          db.run(putStagedVintages);
        }
        forgetKeepIds(db);
        db.prepared(dropStaging).run({ resource });
        markSuccess(resource, { full: true });
        return { written, deleted };
      });
    },

    /**
     * Whether `resource`'s answers may be written straight into their table as they arrive
     * (loadPerProject): it holds none and nothing is staged for it, i.e. a first sync. Its readers
     * then see answers as they come, as they would see nothing but them after the swap-in.
     */
    perProjectLoadable(resource: 'projectDetails' | 'credits'): boolean {
      const table = resource === 'projectDetails' ? 'project_details' : 'project_credits';
      return (
        db.raw.prepare(`SELECT 1 FROM ${table} LIMIT 1`).get() === undefined &&
        db.raw.prepare(`SELECT 1 FROM staging WHERE resource = ? LIMIT 1`).get(resource) === undefined
      );
    },

    /**
     * Writes a batch of per-project answers straight into their empty table (one transaction):
     * each answer is written once, not staged, read back and written again. The rows (and a credits
     * answer's vintages) are those commitPerProject writes; an interrupted run keeps them, so the
     * next one resumes as it does from staged answers.
     */
    loadPerProject(resource: 'projectDetails' | 'credits', rows: readonly StagedRow[]): void {
      const at = now();
      const insert = db.prepared(resource === 'projectDetails' ? insertDetails : insertCredits);
      const vintages = resource === 'credits' ? db.raw.prepare(INSERT_VINTAGES) : null;
      db.transaction(() => {
        for (const row of rows) {
          if (row.json === null) continue;
          insert.run({ id: row.id, json: row.json, list_hash: row.hash, at });
          vintages?.run(row.id, row.json);
        }
      });
    },

    /** Ends a per-project load (loadPerProject): records the resource's success. */
    finishPerProjectLoad(resource: 'projectDetails' | 'credits', written: number): { written: number; deleted: number } {
      db.transaction(() => markSuccess(resource, { full: true }));
      return { written, deleted: 0 };
    },

    replaceOrganizations(organizations: readonly { organization: Organization; installed: boolean }[], options: { full: boolean }): void {
      const at = now();
      const put = db.prepared(replaceOrganization);
      db.transaction(() => {
        if (options.full) db.run(db.q.deleteFrom('organizations'));
        for (const { organization, installed } of organizations) {
          put.run({
            id: organization.id,
            full_name: organization.fullName,
            installed: installed ? 1 : 0,
            json: JSON.stringify(organization),
            at,
          });
        }
        markSuccess('organizations', { full: options.full });
      });
    },

    /**
     * Applies an incremental organizations pass: `fetched` are upserted (and no longer need a
     * refresh), `unseen` were not visible to the app (404) and are remembered as such, and every
     * organization or unseen id not in `keepIds` (no longer installed nor a proponent) is dropped.
     */
    updateOrganizations(update: {
      fetched: readonly { organization: Organization; installed: boolean }[];
      unseen: readonly string[];
      keepIds: readonly string[];
    }): void {
      const at = now();
      db.transaction(() => {
        for (const { organization, installed } of update.fetched) {
          db.prepared(upsertOrganization).run({
            id: organization.id,
            full_name: organization.fullName,
            installed: installed ? 1 : 0,
            json: JSON.stringify(organization),
            at,
          });
          db.prepared(forgetUnseen).run({ id: organization.id });
        }
        for (const id of update.unseen) {
          db.prepared(dropOrganization).run({ id });
          db.prepared(putUnseen).run({ id, at });
        }
        rememberKeepIds(db, update.keepIds);
        db.run(db.q.deleteFrom('organizations').where('id', 'not in', keptIds(db.q)));
        db.run(db.q.deleteFrom('organizations_unseen').where('id', 'not in', keptIds(db.q)));
        forgetKeepIds(db);
        markSuccess('organizations', { full: true });
      });
    },

    replaceWarehouses(
      warehouses: readonly {
        organizationId: string;
        organizationName: string;
        canWrite: boolean;
        credits: WarehouseInventoryCredit[];
        reservations: Reservation[];
      }[],
    ): void {
      const at = now();
      const put = db.prepared(putWarehouse);
      db.transaction(() => {
        // Warehouses of organizations no longer installed are dropped with the rest.
        db.run(db.q.deleteFrom('warehouses'));
        for (const w of warehouses) {
          put.run({
            organization_id: w.organizationId,
            organization_name: w.organizationName,
            can_write: w.canWrite ? 1 : 0,
            credits_json: JSON.stringify(w.credits),
            reservations_json: JSON.stringify(w.reservations),
            fetched_at: at,
          });
        }
        markSuccess('warehouses', { full: true });
      });
    },

    /**
     * Applies what the registry's changes feed says left the app's view: list rows (with their
     * search entries) and per-project answers, in one transaction.
     */
    removeFeedRows(removed: {
      projects: readonly string[];
      internalProjects: readonly string[];
      projectDetails: readonly string[];
      credits: readonly string[];
      retirements: readonly string[];
    }): number {
      return db.transaction(() => {
        let deleted = 0;
        for (const [scope, ids] of [
          ['public', removed.projects],
          ['internal', removed.internalProjects],
        ] as const) {
          for (const id of ids) {
            const row = db.prepared(projectRowid).first({ scope, id });
            if (!row) continue;
            db.prepared(PROJECT_SEARCH[scope].drop).run({ rowid: row.rowid });
            deleted += db.run(db.q.deleteFrom('projects').where('rowid', '=', row.rowid)).changes;
          }
        }
        for (const id of removed.retirements) {
          const row = db.prepared(retirementRowid).first({ id });
          if (!row) continue;
          db.prepared(dropRetirementSearch).run({ rowid: row.rowid });
          deleted += db.run(db.q.deleteFrom('retirements').where('rowid', '=', row.rowid)).changes;
        }
        for (const id of removed.projectDetails) deleted += db.run(db.q.deleteFrom('project_details').where('id', '=', id)).changes;
        for (const id of removed.credits) {
          deleted += db.run(db.q.deleteFrom('project_credits').where('project_id', '=', id)).changes;
          db.run(db.q.deleteFrom('project_vintages').where('project_id', '=', id));
        }
        return deleted;
      });
    },

    /**
     * Organizations the changes feed sent (fresh: no refresh needed) and those it said left the
     * app's view; the organizations step then fetches what the feed cannot show (installed ones).
     */
    putFeedOrganizations(organizations: readonly Organization[], installedIds: ReadonlySet<string>, removed: readonly string[]): void {
      const at = now();
      db.transaction(() => {
        for (const organization of organizations) {
          db.prepared(upsertOrganization).run({
            id: organization.id,
            full_name: organization.fullName,
            installed: installedIds.has(organization.id) ? 1 : 0,
            json: JSON.stringify(organization),
            at,
          });
          db.prepared(forgetUnseen).run({ id: organization.id });
        }
        for (const id of removed) db.prepared(dropOrganization).run({ id });
        // The feed answers every change of an organization the app may see; only installed ones
        // (seen through their installation's token) still need the organizations step's refresh.
        db.run(db.q.updateTable('organizations').set({ needs_refresh: 0 }).where('installed', '=', 0).where('needs_refresh', '=', 1));
      });
    },

    /** The changes feed's cursor (and the view it was taken with); null starts from a snapshot. */
    setFeedCursor(cursor: string | null): void {
      writers.setFeedCursorOf('feed', cursor);
    },

    /** A cursor of the feed by its key (cache queries' feedCursorOf); null forgets it. */
    setFeedCursorOf(key: string, cursor: string | null): void {
      if (cursor === null) db.prepare(`DELETE FROM sync_state WHERE resource = ?`).run(key);
      else
        db.prepare(
          `INSERT INTO sync_state (resource, watermark) VALUES (?, ?) ON CONFLICT (resource) DO UPDATE SET watermark = excluded.watermark`,
        ).run(key, cursor);
    },

    /**
     * What the installations' narrowed feeds (warehouses and organizations) brought, in one
     * transaction: the warehouses they sent, replacing the cached ones; every warehouse the app may
     * no longer read dropped, the others' names and write access as the installations say now; the
     * installed organizations' records (fresh: no refresh needed); and each installation's cursor
     * (those of installations that are gone forgotten).
     */
    putInstallationFeeds(update: {
      sent: readonly { organizationId: string; credits: readonly unknown[]; reservations: readonly unknown[] }[];
      readable: readonly { organizationId: string; organizationName: string; canWrite: boolean }[];
      organizations: readonly Organization[];
      cursors: ReadonlyMap<string, string>;
    }): void {
      const at = now();
      const byId = new Map(update.readable.map((w) => [w.organizationId, w]));
      db.transaction(() => {
        for (const w of update.sent) {
          const ref = byId.get(w.organizationId);
          if (!ref) continue;
          db.prepared(upsertWarehouse).run({
            organization_id: w.organizationId,
            organization_name: ref.organizationName,
            can_write: ref.canWrite ? 1 : 0,
            credits_json: JSON.stringify(w.credits),
            reservations_json: JSON.stringify(w.reservations),
            fetched_at: at,
          });
        }
        rememberKeepIds(db, [...byId.keys()]);
        db.run(db.q.deleteFrom('warehouses').where('organization_id', 'not in', keptIds(db.q)));
        forgetKeepIds(db);
        for (const w of update.readable)
          db.run(
            db.q
              .updateTable('warehouses')
              .set({ organization_name: w.organizationName, can_write: w.canWrite ? 1 : 0 })
              .where('organization_id', '=', w.organizationId),
          );
        markSuccess('warehouses', { full: true });
        for (const organization of update.organizations) {
          db.prepared(upsertOrganization).run({
            id: organization.id,
            full_name: organization.fullName,
            installed: 1,
            json: JSON.stringify(organization),
            at,
          });
          db.prepared(forgetUnseen).run({ id: organization.id });
        }
        db.prepare(`DELETE FROM sync_state WHERE resource LIKE 'feed:installation:%'`).run();
        for (const [key, cursor] of update.cursors) writers.setFeedCursorOf(key, cursor);
      });
    },

    /** Marks resources synced with nothing to write (a changes-feed run that found no change), in one transaction. */
    markSynced(resources: readonly CacheResource[]): void {
      db.transaction(() => {
        for (const resource of resources) markSuccess(resource);
      });
    },

    /** Records a failed attempt; the last good data and its success time stay. */
    markFailure(resource: CacheResource, message: string): void {
      db.prepared(syncFailure).run({ resource, at: now(), message });
    },

    /** Marks a resource synced without data to write (e.g. internal projects without examiner:read). */
    markSkipped(resource: CacheResource): void {
      markSuccess(resource);
    },
  };
  return writers;
}

export type CacheWriters = ReturnType<typeof createCacheWriters>;
