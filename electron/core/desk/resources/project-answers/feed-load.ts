// Per-project answers as a feed snapshot loads them into an empty cache (cache/snapshot-writers.ts).
import { sql } from 'kysely';
import type { Q } from '@desk/cache/writers';
import type { ProjectScope } from '@desk/cache/types';

export const putDetails = (v: { id: string; json: string; list_hash: string; at: number }, q: Q) =>
  q.replaceInto('project_details').values({ id: v.id, json: v.json, list_hash: v.list_hash, fetched_at: v.at });
export const putCredits = (v: { id: string; json: string; list_hash: string; at: number }, q: Q) =>
  q.replaceInto('project_credits').values({ project_id: v.id, json: v.json, list_hash: v.list_hash, fetched_at: v.at });
export const dropVintages = (v: { id: string }, q: Q) => q.deleteFrom('project_vintages').where('project_id', '=', v.id);
// The credits answer's vintages, read from its JSON by SQLite, as the staged path does (writers.ts).
export const putVintages = (v: { id: string; json: string }) =>
  sql<never>`INSERT OR IGNORE INTO project_vintages (project_id, vintage)
    SELECT ${v.id}, json_extract(v.value, '$.vintage') FROM json_each(${v.json}, '$.vintages') v`;
// Answers of projects the snapshot did not list (none, unless the registry changed during it).
export const dropUnlistedDetails = (_v: Record<string, never>, q: Q) =>
  q
    .deleteFrom('project_details')
    .where('id', 'not in', q.selectFrom('projects').select('id').where('scope', '=', sql.lit<ProjectScope>('internal')));
export const dropUnlistedCredits = (v: { scope: ProjectScope }, q: Q) =>
  q.deleteFrom('project_credits').where('project_id', 'not in', q.selectFrom('projects').select('id').where('scope', '=', v.scope));
export const dropUnlistedVintages = (_v: Record<string, never>, q: Q) =>
  q.deleteFrom('project_vintages').where('project_id', 'not in', q.selectFrom('project_credits').select('project_id'));
