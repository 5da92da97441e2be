// What the per-project step asks of the cached answers: the list hash each was fetched for, and when.
import type { QueryBase } from '@desk/cache/queries';
import type { AnswerResource } from './writers';

export function createProjectAnswerQueries(base: QueryBase) {
  const { db } = base;

  /** project id → the list hash the per-project answer was fetched for, and when. */
  function perProjectHashes(resource: AnswerResource): Map<string, { hash: string; fetchedAt: number }> {
    const rows =
      resource === 'projectDetails'
        ? db.all(db.q.selectFrom('project_details').select(['id', 'list_hash', 'fetched_at']))
        : db.all(db.q.selectFrom('project_credits').select(['project_id as id', 'list_hash', 'fetched_at']));
    return new Map(rows.map((r) => [r.id, { hash: r.list_hash, fetchedAt: r.fetched_at }]));
  }

  return { perProjectHashes };
}
