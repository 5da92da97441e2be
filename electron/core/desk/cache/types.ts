import type { SyncResource } from '../../../../shared/desk/api';

/** Every resource the cache tracks in sync_state: the desk API's sync resources. */
export type CacheResource = SyncResource;
export type ProjectScope = 'public' | 'internal';
