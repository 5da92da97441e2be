// A project list's rows (each scope: 'public', and 'internal' with examiner:read) and their search
// entries: swapped in from staging (commitProjects) or loaded straight into an empty scope
// (beginProjectsLoad), and removed one by one when the changes feed says so.
import { sql, type Insertable } from 'kysely';
import type { Project } from '@shared/registry/resources';
import type { CacheTables } from '@desk/cache/schema';
import type { CacheResource, ProjectScope } from '@desk/cache/types';
import { projectColumns, projectSearchText } from '@desk/cache/rows';
import { buildIndexes, withIndexesBuiltAfter } from '@desk/cache/bulk-indexes';
import type { CommitOptions, Q, WriterBase } from '@desk/cache/writers';
import { markProponentsStale } from '@desk/resources/organizations/writers';
import { forgetInternalAnswers } from '@desk/resources/project-answers/writers';

type NewProject = Omit<Insertable<CacheTables['projects']>, 'rowid'>;

export const projectRowid = (v: { scope: ProjectScope; id: string }, q: Q) =>
  q.selectFrom('projects').select('rowid').where('scope', '=', v.scope).where('id', '=', v.id);
/** Every column of a project row but its key (scope, id): what an insert adds to the key and an update sets. */
const projectFields = (v: NewProject) => ({
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
  proponent_ids: v.proponent_ids,
  start_date: v.start_date,
  row_hash: v.row_hash,
  json: v.json,
});
export const insertProject = (v: NewProject, q: Q) => q.insertInto('projects').values({ scope: v.scope, id: v.id, ...projectFields(v) });
const updateProject = (v: NewProject & { rowid: number }, q: Q) =>
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

const resourceOf = (scope: ProjectScope): CacheResource => (scope === 'public' ? 'projects' : 'internalProjects');
const anyProjectOf = (v: { scope: ProjectScope }, q: Q) =>
  q.selectFrom('projects').select(sql.lit(1).as('one')).where('scope', '=', v.scope).limit(1);

export function createProjectWriters(base: WriterBase) {
  const { db, markSuccess, replacePageHashes, changedRows, refreshPlannerStatistics, beginLoad } = base;
  const writers = {
    commitProjects(scope: ProjectScope, options: CommitOptions): { written: number; deleted: number } {
      const resource = resourceOf(scope);
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
        markProponentsStale(db, proponents);
        let deleted = 0;
        if (options.full) {
          db.prepared(search.dropGone).run({ scope, resource });
          deleted = db.prepared(dropGoneProjects).run({ scope, resource }).changes;
        }
        if (written + deleted > 0) refreshPlannerStatistics('projects');
        base.dropStaging(resource);
        replacePageHashes(resource, options.pageHashes, options.full);
        markSuccess(resource, { full: options.full, total: options.total ?? null });
        return { written, deleted };
      });
    },

    /**
     * The app lost examiner:read: everything only the grant let the desk read goes, in one
     * transaction: the internal list (its rows, search entries, staged rows and page hashes, so a
     * re-grant reads it whole again) and the answers of the internal endpoints (project-answers).
     */
    forgetInternalProjects(): { deleted: number } {
      return db.transaction(() => {
        base.dropStaging('internalProjects');
        const { deleted } = writers.commitProjects('internal', { full: true, pageHashes: [] });
        return { deleted: deleted + forgetInternalAnswers(db) };
      });
    },

    /** Whether a scope's list may be loaded straight into the table (beginProjectsLoad): it has no row. */
    projectsLoadable(scope: ProjectScope): boolean {
      return db.prepared(anyProjectOf).first({ scope }) === undefined;
    },

    /**
     * A full pass of a scope's projects into a scope with none (the first sync), as
     * beginRetirementsLoad loads retirements: rows go straight into the table, with their search
     * entries, inside one transaction held open for the pass, the table's secondary indexes built
     * once at the end. The rows, entries, page hashes, organization marks and sync_state are those
     * commitProjects writes; a pass that fails rolls back to the empty scope.
     */
    beginProjectsLoad(scope: ProjectScope) {
      const resource = resourceOf(scope);
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
          buildIndexes(db, indexes);
          markProponentsStale(db, proponents);
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

    /** Removes the listed projects of a scope (and their search entries): the feed says they left the app's view. */
    removeProjects(scope: ProjectScope, ids: readonly string[]): number {
      let deleted = 0;
      for (const id of ids) {
        const row = db.prepared(projectRowid).first({ scope, id });
        if (!row) continue;
        db.prepared(PROJECT_SEARCH[scope].drop).run({ rowid: row.rowid });
        deleted += db.run(db.q.deleteFrom('projects').where('rowid', '=', row.rowid)).changes;
      }
      return deleted;
    },
  };
  return writers;
}
