// Per-project answers as a feed snapshot loads them into an empty cache (cache/snapshot-writers.ts).
import { sql } from 'kysely';
import type { Q } from '@desk/cache/writers';
import type { ProjectScope } from '@desk/cache/types';
import type { PreparedItem } from '@desk/sync/worker/page-prep';
import type { FeedPage, LoadBase } from '@desk/resources/feed-part';

export const putDetails = (v: { id: string; json: string; list_hash: string; at: number }, q: Q) =>
  q.replaceInto('project_details').values({ id: v.id, json: v.json, list_hash: v.list_hash, fetched_at: v.at });
export const putCredits = (v: { id: string; json: string; list_hash: string; at: number }, q: Q) =>
  q.replaceInto('project_credits').values({ project_id: v.id, json: v.json, list_hash: v.list_hash, fetched_at: v.at });
export const dropVintages = (v: { id: string }, q: Q) => q.deleteFrom('project_vintages').where('project_id', '=', v.id);
// One of a credits answer's vintages: the rows the staged path reads from its JSON by SQLite
// (writers.ts), here from the answer the page reader parsed (SQLite parsing each answer's JSON again
// took about 0.5 s of a first sync at --scale 100: bench/README.md, sync).
export const putVintage = (v: { id: string; vintage: string }, q: Q) =>
  q.insertInto('project_vintages').orIgnore().values({ project_id: v.id, vintage: v.vintage });
// Answers of projects the snapshot did not list (none, unless the registry changed during it).
export const dropUnlistedDetails = (_v: Record<string, never>, q: Q) =>
  q
    .deleteFrom('project_details')
    .where('id', 'not in', q.selectFrom('projects').select('id').where('scope', '=', sql.lit<ProjectScope>('internal')));
export const dropUnlistedCredits = (v: { scope: ProjectScope }, q: Q) =>
  q.deleteFrom('project_credits').where('project_id', 'not in', q.selectFrom('projects').select('id').where('scope', '=', v.scope));
export const dropUnlistedVintages = (_v: Record<string, never>, q: Q) =>
  q.deleteFrom('project_vintages').where('project_id', 'not in', q.selectFrom('project_credits').select('project_id'));

/** Per-project answers loaded as they arrive; those of projects the snapshot did not list dropped at the end. */
export function loadProjectAnswers(base: LoadBase) {
  const { db } = base;
  const at = base.now();
  const counts = { projectDetails: 0, credits: 0 };
  const credited = new Set<string>();
  return {
    take(item: PreparedItem, page: FeedPage): boolean {
      if (item.type === 'internalProject') {
        if (!page.examinerRead) return false;
        if (db.prepared(putDetails).run({ id: item.id, json: item.detailsJson, list_hash: item.hash, at }).changes > 0)
          counts.projectDetails++;
      } else if (item.type === 'projectCredits') {
        // Filed under the list row it came with (page-prep.ts), as the seed path does.
        const { id, json } = item;
        db.prepared(putCredits).run({ id, json, list_hash: item.listHash, at });
        if (credited.has(id)) db.prepared(dropVintages).run({ id });
        else counts.credits++;
        credited.add(id);
        for (const vintage of item.vintages) db.prepared(putVintage).run({ id, vintage });
      } else return false;
      return true;
    },
    /** `examinerRead` says which project scope the answers follow. */
    finish(examinerRead: boolean) {
      db.prepared(dropUnlistedDetails).run({});
      db.prepared(dropUnlistedCredits).run({ scope: examinerRead ? 'internal' : 'public' });
      db.prepared(dropUnlistedVintages).run({});
      base.markSuccess('credits');
      if (examinerRead) base.markSuccess('projectDetails');
      return counts;
    },
  };
}
