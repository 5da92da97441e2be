import type { SyncResource } from '@shared/desk/api';

/** Every resource the cache tracks in sync_state: the desk API's sync resources. */
export type CacheResource = SyncResource;
export type ProjectScope = 'public' | 'internal';

/** A stored cursor of the changes feed in sync_state: the app's, or an installation's. */
export type FeedCursorKey = 'feed' | `feed:installation:${string}`;

/** A row a sync run has read, staged until the run commits the resource. */
export interface StagedRow {
  id: string;
  hash: string;
  /** The row's JSON when it is new or changed; null when the cache already holds it unchanged. */
  json: string | null;
}

/** A boolean column: 0 or 1. */
export type Bool = 0 | 1;

/** An FTS5 table: untyped columns (NULL when nothing was written) keyed by the indexed row's rowid. */
export type Fts<Columns extends string> = { rowid: number } & { [C in Columns]: string | null };
