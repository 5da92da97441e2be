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
 * copy), and their proponents marked for a refresh before the feed's organizations are put. The
 * load also knows each loaded project's proponents, so the organizations step after it need not
 * read them back from every project's JSON (`proponentIds`).
 */
export function loadProjects(base: LoadBase) {
  const { db } = base;
  const rowids = { public: new Map<string, number>(), internal: new Map<string, number>() };
  const counts = { public: 0, internal: 0 };
  const proponents = new Set<string>();
  // Each project's proponents as loaded, by scope: its last copy, none once the feed removes it.
  const proponentsOf = { public: new Map<string, readonly string[]>(), internal: new Map<string, readonly string[]>() };

  function project(scope: ProjectScope, row: LoadedProject): void {
    const search = PROJECT_SEARCH[scope];
    const previous = rowids[scope].get(row.id);
    if (previous !== undefined) {
      db.prepared(search.drop).run({ rowid: previous });
      db.prepared(dropProject).run({ rowid: previous });
    } else counts[scope]++;
    for (const id of row.parts.proponents) proponents.add(id);
    proponentsOf[scope].set(row.id, row.parts.proponents);
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
    dropped(type: PreparedItem['type'], id: string): void {
      if (type === 'project') proponentsOf.public.delete(id);
      else if (type === 'internalProject') proponentsOf.internal.delete(id);
    },
    /**
     * The proponents of the projects loaded, as the cache's proponentIds() reads them once the load
     * is done: those of the internal list when it holds any project (it is every project), else
     * the public one's. (0.1-0.3 s at --scale 100 read back from 10,000 projects' JSON.)
     */
    proponentIds(): string[] {
      const scope = proponentsOf.internal.size > 0 ? proponentsOf.internal : proponentsOf.public;
      return [...new Set([...scope.values()].flat())];
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
