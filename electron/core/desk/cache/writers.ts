// Writing into the cache. List resources are collected page by page into `staging` and swapped in
// by one transaction at the end of a run (commit*), together with their sync_state and page hashes:
// a reader sees either the previous resource or the new one, never a mix, and a run that dies
// half-way leaves the previous data (and page hashes) exactly as they were.
import type { SqliteDatabase } from '../../db/database';
import type { Organization, Project, Reservation, Retirement, WarehouseInventoryCredit } from '../../../../shared/registry/resources';
import { hashJson, projectColumns, projectSearchText, retirementColumns } from './rows';
import { createInventoryWriters } from './inventory-writers';
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

export function createCacheWriters(db: SqliteDatabase<unknown>, now: () => number) {
  /**
   * A row of a searchable table is inserted, or updated in place so it keeps its rowid (which its
   * search entry shares) and its old search entry dropped; either way the caller then writes the
   * entry anew. Answers the row's rowid.
   */
  function searchableUpsert(insertSql: string, updateSql: string, ftsTable: string) {
    const insert = db.prepare(insertSql);
    const update = db.prepare(updateSql);
    const ftsDelete = db.prepare(`DELETE FROM ${ftsTable} WHERE rowid = ?`);
    return (rowid: number | undefined, values: Record<string, unknown>): number | bigint => {
      if (rowid === undefined) return insert.run(values).lastInsertRowid;
      update.run({ ...values, rowid });
      ftsDelete.run(rowid);
      return rowid;
    };
  }

  function markSuccess(resource: CacheResource, extra: { full?: boolean; watermark?: string | null; total?: number | null } = {}) {
    const at = now();
    db.prepare(
      `INSERT INTO sync_state (resource, last_success_at, last_attempt_at, last_error, last_full_at, watermark, total)
       VALUES (@resource, @at, @at, NULL, @fullAt, @watermark, @total)
       ON CONFLICT (resource) DO UPDATE SET last_success_at = @at, last_attempt_at = @at, last_error = NULL,
         last_full_at = COALESCE(@fullAt, last_full_at), watermark = COALESCE(@watermark, watermark), total = COALESCE(@total, total)`,
    ).run({ resource, at, fullAt: extra.full ? at : null, watermark: extra.watermark ?? null, total: extra.total ?? null });
  }

  function replacePageHashes(resource: CacheResource, pages: PageHash[], full: boolean) {
    if (full) db.prepare('DELETE FROM page_hashes WHERE resource = ?').run(resource);
    const insert = db.prepare('INSERT OR REPLACE INTO page_hashes (resource, page, hash, ids) VALUES (?, ?, ?, ?)');
    for (const p of pages) insert.run(resource, p.page, p.hash, JSON.stringify(p.ids));
  }

  /**
   * Staged rows with JSON, in chunks: better-sqlite3 cannot write while a statement iterates, and
   * reading all at once would hold a whole resource's JSON in memory.
   */
  function* changedRows(resource: CacheResource): Generator<{ id: string; row_hash: string; json: string }> {
    const chunk = db.prepare(
      'SELECT id, row_hash, json FROM staging WHERE resource = ? AND json IS NOT NULL AND id > ? ORDER BY id LIMIT 500',
    );
    let after = '';
    for (;;) {
      const rows = chunk.all(resource, after) as { id: string; row_hash: string; json: string }[];
      yield* rows;
      if (rows.length < 500) return;
      after = rows[rows.length - 1]!.id;
    }
  }

  /** Writes one retirement row (columns, JSON and its search entry), inserting or replacing it. */
  function retirementRowWriter() {
    const existing = db.prepare('SELECT rowid FROM retirements WHERE id = ?').pluck();
    const columnsSql =
      'created_at, is_claimed, amount, beneficiary, reason, organization_name, project_id, project_name, project_num, serialization, vintage, row_hash, json';
    const upsert = searchableUpsert(
      `INSERT INTO retirements (id, ${columnsSql}) VALUES (@id, @created_at, @is_claimed, @amount, @beneficiary, @reason,
         @organization_name, @project_id, @project_name, @project_num, @serialization, @vintage, @row_hash, @json)`,
      `UPDATE retirements SET created_at = @created_at, is_claimed = @is_claimed, amount = @amount, beneficiary = @beneficiary,
         reason = @reason, organization_name = @organization_name, project_id = @project_id, project_name = @project_name,
         project_num = @project_num, serialization = @serialization, vintage = @vintage, row_hash = @row_hash, json = @json
       WHERE rowid = @rowid`,
      'retirements_fts',
    );
    const ftsInsert = db.prepare('INSERT INTO retirements_fts (rowid, beneficiary, serialization, project) VALUES (?, ?, ?, ?)');
    return (row: { id: string; row_hash: string; json: string }) => {
      const columns = retirementColumns(JSON.parse(row.json) as Retirement);
      const values = { id: row.id, ...columns, row_hash: row.row_hash, json: row.json };
      const target = upsert(existing.get(row.id) as number | undefined, values);
      ftsInsert.run(target, columns.beneficiary ?? '', columns.serialization ?? '', `${columns.project_name} ${columns.project_num}`);
    };
  }

  /**
   * Re-samples a table's index statistics (bounded by the connection's analysis_limit, so a few
   * milliseconds): without them the planner cannot tell a selective filter (one vintage) from a
   * broad one (claimed) and may walk tens of thousands of rows.
   */
  function refreshPlannerStatistics(table: 'projects' | 'retirements') {
    db.raw.exec(`ANALYZE ${table}`);
  }

  const writers = {
    // The registry accounts' inventories: staged per account, swapped in together (inventory-writers.ts).
    ...createInventoryWriters(db, now, () => markSuccess('inventories', { full: true })),

    /** Starts collecting a resource afresh (rows staged by an interrupted run are dropped). */
    beginStaging(resource: CacheResource): void {
      db.prepare('DELETE FROM staging WHERE resource = ?').run(resource);
    },

    /** Adds one page of rows to the staging area, in one transaction. */
    stage(resource: CacheResource, rows: readonly StagedRow[]): void {
      const insert = db.prepare('INSERT OR REPLACE INTO staging (resource, id, row_hash, json) VALUES (?, ?, ?, ?)');
      db.transaction(() => {
        for (const row of rows) insert.run(resource, row.id, row.hash, row.json);
      });
    },

    /** Row hashes of staged rows (to resume per-project fetches an earlier run already did). */
    stagedHashes(resource: CacheResource): Map<string, string> {
      const rows = db.prepare('SELECT id, row_hash FROM staging WHERE resource = ?').all(resource) as { id: string; row_hash: string }[];
      return new Map(rows.map((r) => [r.id, r.row_hash]));
    },

    commitProjects(scope: ProjectScope, options: CommitOptions): { written: number; deleted: number } {
      const resource: CacheResource = scope === 'public' ? 'projects' : 'internalProjects';
      const existing = db.prepare('SELECT rowid FROM projects WHERE scope = ? AND id = ?').pluck();
      // Each scope has its own FTS table (migration 0003): its matches are counted without a join.
      const fts = `projects_${scope}_fts`;
      const upsert = searchableUpsert(
        `INSERT INTO projects (scope, id, num, num_sort, full_name, short_description, status, country_code, country_name,
           sector_id, sector_title, methodology_id, methodology_title, type_id, type_title, proponents, start_date, row_hash, json)
         VALUES (@scope, @id, @num, @num_sort, @full_name, @short_description, @status, @country_code, @country_name,
           @sector_id, @sector_title, @methodology_id, @methodology_title, @type_id, @type_title, @proponents, @start_date, @row_hash, @json)`,
        `UPDATE projects SET num = @num, num_sort = @num_sort, full_name = @full_name, short_description = @short_description,
           status = @status, country_code = @country_code, country_name = @country_name, sector_id = @sector_id,
           sector_title = @sector_title, methodology_id = @methodology_id, methodology_title = @methodology_title,
           type_id = @type_id, type_title = @type_title, proponents = @proponents, start_date = @start_date,
           row_hash = @row_hash, json = @json
         WHERE rowid = @rowid`,
        fts,
      );
      const ftsInsert = db.prepare(
        `INSERT INTO ${fts} (rowid, name, num, description, country, methodology, proponents) VALUES (@rowid, @name, @num, @description, @country, @methodology, @proponents)`,
      );
      // A changed project row may carry a changed proponent: those organizations are fetched again.
      const refreshOrganization = db.prepare('UPDATE organizations SET needs_refresh = 1 WHERE id = ? AND needs_refresh = 0');
      const forgetUnseen = db.prepare('DELETE FROM organizations_unseen WHERE id = ?');
      return db.transaction(() => {
        let written = 0;
        const proponents = new Set<string>();
        for (const row of changedRows(resource)) {
          const project = JSON.parse(row.json) as Project;
          for (const organization of project.proponents) proponents.add(organization.id);
          const columns = projectColumns(project);
          const values = { scope, id: row.id, ...columns, row_hash: row.row_hash, json: row.json };
          const target = upsert(existing.get(scope, row.id) as number | undefined, values);
          ftsInsert.run({ rowid: target, ...projectSearchText(project, columns) });
          written++;
        }
        for (const id of proponents) {
          refreshOrganization.run(id);
          forgetUnseen.run(id);
        }
        let deleted = 0;
        if (options.full) {
          const gone = `SELECT rowid FROM projects WHERE scope = ? AND id NOT IN (SELECT id FROM staging WHERE resource = ?)`;
          db.prepare(`DELETE FROM ${fts} WHERE rowid IN (${gone})`).run(scope, resource);
          deleted = db.prepare(`DELETE FROM projects WHERE rowid IN (${gone})`).run(scope, resource).changes;
        }
        if (written + deleted > 0) refreshPlannerStatistics('projects');
        db.prepare('DELETE FROM staging WHERE resource = ?').run(resource);
        replacePageHashes(resource, options.pageHashes, options.full);
        markSuccess(resource, { full: options.full, total: options.total ?? null });
        return { written, deleted };
      });
    },

    commitRetirements(options: CommitOptions): { written: number; deleted: number } {
      const resource: CacheResource = 'retirements';
      const write = retirementRowWriter();
      return db.transaction(() => {
        let written = 0;
        for (const row of changedRows(resource)) {
          write(row);
          written++;
        }
        let deleted = 0;
        if (options.full) {
          const gone = `SELECT rowid FROM retirements WHERE id NOT IN (SELECT id FROM staging WHERE resource = 'retirements')`;
          db.prepare(`DELETE FROM retirements_fts WHERE rowid IN (${gone})`).run();
          deleted = db.prepare(`DELETE FROM retirements WHERE rowid IN (${gone})`).run().changes;
        }
        if (written + deleted > 0) refreshPlannerStatistics('retirements');
        db.prepare('DELETE FROM staging WHERE resource = ?').run(resource);
        replacePageHashes(resource, options.pageHashes, options.full);
        markSuccess(resource, { full: options.full, watermark: options.watermark ?? null, total: options.total ?? null });
        return { written, deleted };
      });
    },

    /**
     * Writes one retirement the registry just answered (after a finalize): incremental syncs read
     * the newest retirements only, so an older one that changed would otherwise wait for the next
     * full pass.
     */
    putRetirement(retirement: Retirement): void {
      const json = JSON.stringify(retirement);
      const write = retirementRowWriter();
      db.transaction(() => write({ id: retirement.id, row_hash: hashJson(json), json }));
    },

    /**
     * Swaps in per-project answers staged by a run (details or credits). `keepIds` are the projects
     * that still exist: answers of any other project are removed.
     */
    commitPerProject(resource: 'projectDetails' | 'credits', keepIds: readonly string[]): { written: number; deleted: number } {
      const table = resource === 'projectDetails' ? 'project_details' : 'project_credits';
      const key = resource === 'projectDetails' ? 'id' : 'project_id';
      const at = now();
      return db.transaction(() => {
        const written = db
          .prepare(
            `INSERT INTO ${table} (${key}, json, list_hash, fetched_at)
             SELECT id, json, row_hash, ? FROM staging WHERE resource = ? AND json IS NOT NULL
             ON CONFLICT (${key}) DO UPDATE SET json = excluded.json, list_hash = excluded.list_hash, fetched_at = excluded.fetched_at`,
          )
          .run(at, resource).changes;
        db.raw.exec('CREATE TEMP TABLE IF NOT EXISTS keep_ids (id TEXT PRIMARY KEY) WITHOUT ROWID');
        db.raw.exec('DELETE FROM temp.keep_ids');
        const keep = db.prepare('INSERT OR IGNORE INTO temp.keep_ids (id) VALUES (?)');
        for (const id of keepIds) keep.run(id);
        const deleted = db.prepare(`DELETE FROM ${table} WHERE ${key} NOT IN (SELECT id FROM temp.keep_ids)`).run().changes;
        if (resource === 'credits') {
          // The vintage filter and facet read project_vintages: rebuild it for what changed.
          db.prepare(`DELETE FROM project_vintages WHERE project_id NOT IN (SELECT id FROM temp.keep_ids)`).run();
          db.prepare(
            `DELETE FROM project_vintages WHERE project_id IN (SELECT id FROM staging WHERE resource = 'credits' AND json IS NOT NULL)`,
          ).run();
          db.prepare(
            `INSERT OR IGNORE INTO project_vintages (project_id, vintage)
             SELECT s.id, json_extract(v.value, '$.vintage') FROM staging s, json_each(s.json, '$.vintages') v
             WHERE s.resource = 'credits' AND s.json IS NOT NULL`,
          ).run();
        }
        db.raw.exec('DELETE FROM temp.keep_ids');
        db.prepare('DELETE FROM staging WHERE resource = ?').run(resource);
        markSuccess(resource, { full: true });
        return { written, deleted };
      });
    },

    replaceOrganizations(organizations: readonly { organization: Organization; installed: boolean }[], options: { full: boolean }): void {
      const at = now();
      const put = db.prepare('INSERT OR REPLACE INTO organizations (id, full_name, installed, json, fetched_at) VALUES (?, ?, ?, ?, ?)');
      db.transaction(() => {
        if (options.full) db.prepare('DELETE FROM organizations').run();
        for (const { organization, installed } of organizations) {
          put.run(organization.id, organization.fullName, installed ? 1 : 0, JSON.stringify(organization), at);
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
      const put = db.prepare(
        `INSERT INTO organizations (id, full_name, installed, json, fetched_at, needs_refresh) VALUES (?, ?, ?, ?, ?, 0)
         ON CONFLICT (id) DO UPDATE SET full_name = excluded.full_name, installed = excluded.installed, json = excluded.json,
           fetched_at = excluded.fetched_at, needs_refresh = 0`,
      );
      const dropOrganization = db.prepare('DELETE FROM organizations WHERE id = ?');
      const putUnseen = db.prepare('INSERT OR REPLACE INTO organizations_unseen (id, checked_at) VALUES (?, ?)');
      const forgetUnseen = db.prepare('DELETE FROM organizations_unseen WHERE id = ?');
      db.transaction(() => {
        for (const { organization, installed } of update.fetched) {
          put.run(organization.id, organization.fullName, installed ? 1 : 0, JSON.stringify(organization), at);
          forgetUnseen.run(organization.id);
        }
        for (const id of update.unseen) {
          dropOrganization.run(id);
          putUnseen.run(id, at);
        }
        db.raw.exec('CREATE TEMP TABLE IF NOT EXISTS keep_ids (id TEXT PRIMARY KEY) WITHOUT ROWID');
        db.raw.exec('DELETE FROM temp.keep_ids');
        const keep = db.prepare('INSERT OR IGNORE INTO temp.keep_ids (id) VALUES (?)');
        for (const id of update.keepIds) keep.run(id);
        db.prepare('DELETE FROM organizations WHERE id NOT IN (SELECT id FROM temp.keep_ids)').run();
        db.prepare('DELETE FROM organizations_unseen WHERE id NOT IN (SELECT id FROM temp.keep_ids)').run();
        db.raw.exec('DELETE FROM temp.keep_ids');
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
      const put = db.prepare(
        'INSERT INTO warehouses (organization_id, organization_name, can_write, credits_json, reservations_json, fetched_at) VALUES (?, ?, ?, ?, ?, ?)',
      );
      db.transaction(() => {
        // Warehouses of organizations no longer installed are dropped with the rest.
        db.prepare('DELETE FROM warehouses').run();
        for (const w of warehouses) {
          put.run(w.organizationId, w.organizationName, w.canWrite ? 1 : 0, JSON.stringify(w.credits), JSON.stringify(w.reservations), at);
        }
        markSuccess('warehouses', { full: true });
      });
    },

    /** Records a failed attempt; the last good data and its success time stay. */
    markFailure(resource: CacheResource, message: string): void {
      db.prepare(
        `INSERT INTO sync_state (resource, last_attempt_at, last_error) VALUES (?, ?, ?)
         ON CONFLICT (resource) DO UPDATE SET last_attempt_at = excluded.last_attempt_at, last_error = excluded.last_error`,
      ).run(resource, now(), message);
    },

    /** Marks a resource synced without data to write (e.g. internal projects without examiner:read). */
    markSkipped(resource: CacheResource): void {
      markSuccess(resource);
    },
  };
  return writers;
}

export type CacheWriters = ReturnType<typeof createCacheWriters>;
