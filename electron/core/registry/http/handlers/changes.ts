// The changes feed (GET /sync/v1/changes, beyond the interface): what changed since the caller's
// cursor, as its token may see it (registry/queries/changes.ts). Answers are large pages, sent
// compressed when the client accepts it (compression.ts).
import { changesSince, decodeCursor, type FeedViewer } from '@registry/queries/changes';
import type { Caller } from '@registry/auth/caller';
import type { FeedKeyKind } from '@shared/registry/vocabulary';
import { jsonText, type Handlers } from '../types';

function viewerOf(caller: Caller): FeedViewer {
  if (caller.kind !== 'token') return { examinerRead: false, organizationId: null, warehouseRead: false };
  const level = caller.permissions.organization_warehouse;
  return {
    examinerRead: caller.examinerRead,
    organizationId: caller.organizationId,
    warehouseRead: caller.organizationId !== null && (level === 'VIEW' || level === 'WRITE'),
  };
}

export const changesHandlers: Pick<Handlers, 'getChanges'> = {
  getChanges: ({ registry, query, caller }) => {
    const cursor = query.cursor ? decodeCursor(registry, query.cursor) : null;
    const kinds = query.kinds ? [...new Set(query.kinds.split(',') as FeedKeyKind[])] : undefined;
    return jsonText(changesSince(registry, viewerOf(caller), cursor, query.limit, { kinds, organizationId: query.organizationId }));
  },
};
