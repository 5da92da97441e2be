// A project list's rows as a feed snapshot loads them into an empty cache (cache/snapshot-writers.ts).
import { dropPageHashes, type Q } from '@desk/cache/writers';
import type { ProjectRowParts } from '@desk/cache/rows';
import type { ProjectScope } from '@desk/cache/types';
import type { PreparedItem } from '@desk/sync/worker/page-prep';
import type { FeedPage, LoadBase } from '@desk/resources/feed-part';
import { forgetUnseen, markOrganizationStale } from '@desk/resources/organizations/writers';
import { insertProject, PROJECT_SEARCH } from './writers';

export const dropProject = (v: { rowid: number }, q: Q) => q.deleteFrom('projects').where('rowid', '=', v.rowid);

/** A project list row as the load takes it: made ready beforehand (the feed's page reader). */
export interface LoadedProject {
  id: string;
  json: string;
  hash: string;
  parts: ProjectRowParts;
}

/**
 * The list rows of both scopes, loaded (a project sent again during the snapshot replaces the first
 * copy), and their proponents marked for a refresh before the feed's organizations are put.
 */
export function loadProjects(base: LoadBase) {
  const { db } = base;
  const rowids = { public: new Map<string, number>(), internal: new Map<string, number>() };
  const counts = { public: 0, internal: 0 };
  const proponents = new Set<string>();

  function project(scope: ProjectScope, row: LoadedProject): void {
    const search = PROJECT_SEARCH[scope];
    const previous = rowids[scope].get(row.id);
    if (previous !== undefined) {
      db.prepared(search.drop).run({ rowid: previous });
      db.prepared(dropProject).run({ rowid: previous });
    } else counts[scope]++;
    for (const id of row.parts.proponents) proponents.add(id);
    const { columns } = row.parts;
    const rowid = Number(
      db.prepared(insertProject).run({ scope, id: row.id, ...columns, row_hash: row.hash, json: row.json }).lastInsertRowid,
    );
    rowids[scope].set(row.id, rowid);
    db.prepared(search.put).run({ rowid, ...row.parts.search });
  }

  return {
    project,
    take(item: PreparedItem, page: FeedPage): boolean {
      if (item.type === 'project') project('public', item);
      // Without examiner:read the feed sends none; were one sent, it would not be kept (as staged).
      else if (item.type === 'internalProject' && page.examinerRead) project('internal', item);
      else return false;
      return true;
    },
    /** Marks the listed projects' proponents for a refresh (before the feed's organizations are put). */
    beforeRemovals(): void {
      for (const id of proponents) {
        db.prepared(markOrganizationStale).run({ id });
        db.prepared(forgetUnseen).run({ id });
      }
    },
    finish() {
      for (const resource of ['projects', 'internalProjects'] as const) {
        db.prepared(dropPageHashes).run({ resource });
        base.markSuccess(resource);
      }
      return { projects: counts.public, internalProjects: counts.internal };
    },
  };
}
