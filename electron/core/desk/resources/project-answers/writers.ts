// Per-project answers (a project's details, with examiner:read, and its credits with their
// vintages): swapped in from staging (commitPerProject) or, into an empty table, written as they
// arrive (loadPerProject); removed when the changes feed says so.
import { sql } from 'kysely';
import type { CacheResource, ProjectScope, StagedRow } from '@desk/cache/types';
import { dropStaging, forgetKeepIds, keptIds, rememberKeepIds, type Db, type Q, type WriterBase } from '@desk/cache/writers';

export type AnswerResource = 'projectDetails' | 'credits';

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
const putVintagesOf = (v: { id: string; json: string }) => sql<never>`INSERT OR IGNORE INTO project_vintages (project_id, vintage)
  SELECT ${v.id}, json_extract(v.value, '$.vintage') FROM json_each(${v.json}, '$.vintages') v`;
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
// What only examiner:read let the desk read of the per-project answers (forgetInternalAnswers).
const publicIds = (q: Q) => q.selectFrom('projects').select('id').where('scope', '=', sql.lit<ProjectScope>('public'));
const dropAllDetails = (_v: Record<string, never>, q: Q) => q.deleteFrom('project_details');
const dropNonPublicCredits = (_v: Record<string, never>, q: Q) =>
  q.deleteFrom('project_credits').where('project_id', 'not in', publicIds(q));
const dropNonPublicVintages = (_v: Record<string, never>, q: Q) =>
  q.deleteFrom('project_vintages').where('project_id', 'not in', publicIds(q));
const dropNonPublicStagedCredits = (_v: Record<string, never>, q: Q) =>
  q.deleteFrom('staging').where('resource', '=', sql.lit<CacheResource>('credits')).where('id', 'not in', publicIds(q));

/**
 * Removes the answers only examiner:read let the desk read: every internal project's details (its
 * internal fields and events, staged ones too) and the credits of projects the public list does
 * not hold. Run inside the transaction that empties the internal list (projects/writers.ts), after
 * the public list is in. With none left, a re-grant's pass fetches every answer again (sync.ts planPart).
 */
export function forgetInternalAnswers(db: Db): number {
  let deleted = db.prepared(dropAllDetails).run({}).changes;
  db.prepared(dropStaging).run({ resource: 'projectDetails' });
  deleted += db.prepared(dropNonPublicCredits).run({}).changes;
  db.prepared(dropNonPublicVintages).run({});
  db.prepared(dropNonPublicStagedCredits).run({});
  return deleted;
}

const anyDetails = (_v: Record<string, never>, q: Q) => q.selectFrom('project_details').select(sql.lit(1).as('one')).limit(1);
const anyCredits = (_v: Record<string, never>, q: Q) => q.selectFrom('project_credits').select(sql.lit(1).as('one')).limit(1);
const anyStaged = (v: { resource: CacheResource }, q: Q) =>
  q.selectFrom('staging').select(sql.lit(1).as('one')).where('resource', '=', v.resource).limit(1);

export function createProjectAnswerWriters(base: WriterBase) {
  const { db, now, markSuccess } = base;
  return {
    /**
     * Swaps in per-project answers staged by a run (details or credits). `keepIds` are the projects
     * that still exist: answers of any other project are removed.
     */
    commitPerProject(resource: AnswerResource, keepIds: readonly string[]): { written: number; deleted: number } {
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
        base.dropStaging(resource);
        markSuccess(resource, { full: true });
        return { written, deleted };
      });
    },

    /**
     * Whether `resource`'s answers may be written straight into their table as they arrive
     * (loadPerProject): it holds none and nothing is staged for it, i.e. a first sync. Its readers
     * then see answers as they come, as they would see nothing but them after the swap-in.
     */
    perProjectLoadable(resource: AnswerResource): boolean {
      const held = db.prepared(resource === 'projectDetails' ? anyDetails : anyCredits).first({});
      return held === undefined && db.prepared(anyStaged).first({ resource }) === undefined;
    },

    /**
     * Writes a batch of per-project answers straight into their empty table (one transaction):
     * each answer is written once, not staged, read back and written again. The rows (and a credits
     * answer's vintages) are those commitPerProject writes; an interrupted run keeps them, so the
     * next one resumes as it does from staged answers.
     */
    loadPerProject(resource: AnswerResource, rows: readonly StagedRow[]): void {
      const at = now();
      const insert = db.prepared(resource === 'projectDetails' ? insertDetails : insertCredits);
      const vintages = resource === 'credits' ? db.prepared(putVintagesOf) : null;
      db.transaction(() => {
        for (const row of rows) {
          if (row.json === null) continue;
          insert.run({ id: row.id, json: row.json, list_hash: row.hash, at });
          vintages?.run({ id: row.id, json: row.json });
        }
      });
    },

    /** Ends a per-project load (loadPerProject): records the resource's success. */
    finishPerProjectLoad(resource: AnswerResource, written: number): { written: number; deleted: number } {
      db.transaction(() => markSuccess(resource, { full: true }));
      return { written, deleted: 0 };
    },

    /** Removes the listed projects' answers (a credits answer with its vintages): the feed says they left. */
    removeProjectAnswers(resource: AnswerResource, ids: readonly string[]): number {
      let deleted = 0;
      for (const id of ids) {
        if (resource === 'projectDetails') deleted += db.run(db.q.deleteFrom('project_details').where('id', '=', id)).changes;
        else {
          deleted += db.run(db.q.deleteFrom('project_credits').where('project_id', '=', id)).changes;
          db.run(db.q.deleteFrom('project_vintages').where('project_id', '=', id));
        }
      }
      return deleted;
    },
  };
}
