// A project list's rows as a feed snapshot loads them into an empty cache (cache/snapshot-writers.ts).
import type { Q } from '@desk/cache/writers';
import type { ProjectRowParts } from '@desk/cache/rows';

export const dropProject = (v: { rowid: number }, q: Q) => q.deleteFrom('projects').where('rowid', '=', v.rowid);

/** A project list row as the load takes it: made ready beforehand (the feed's page reader). */
export interface LoadedProject {
  id: string;
  json: string;
  hash: string;
  parts: ProjectRowParts;
}
