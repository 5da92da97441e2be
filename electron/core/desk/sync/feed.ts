// Sync from the registry's changes feed (GET /sync/v1/changes, beyond the seed interface): one
// stream of what changed since the stored cursor replaces the project lists, every per-project
// request, the inventories and the retirement pages. Pages are read one ahead (the registry
// prepares page n+1 while the desk writes page n). Items are checked one by one against the
// tolerant schemas (a compiled check first, zod when it is not sure: shape-check.ts) and written as
// the seed path's rows (the same JSON, the same hashes, so both paths fill the cache identically):
// into an empty cache directly, in one transaction (cache/snapshot-writers.ts); otherwise staged
// and swapped in at the end in the same transactions as the seed path's, removals applied after.
// The cursor is stored only once everything is committed, so a run that fails leaves the previous
// data and cursor, and the next run asks again from there.
//
// Warehouses and organization records are not taken from it: they need installation tokens (the
// feed is read with the app's), and the seed steps that follow are already incremental. The pass
// is laid out in feed-pages.ts (pages), feed-read.ts (items), feed-snapshot.ts and feed-stage.ts.
import type { DeskCache } from '@desk/cache';
import type { StepContext } from './context';
import { beginSnapshotLoad, cacheIsEmpty } from '@desk/cache/snapshot-writers';
import { RegistryClientError } from '@desk/client/errors';
import { cursorScope, type FeedRun } from './feed-read';
import { readIntoSnapshot } from './feed-snapshot';
import { readAndStage } from './feed-stage';

export { FEED_RESOURCES, type FeedResource, type FeedRun } from './feed-read';
export { FEED_PAGE_TIMEOUT_MS, FeedNotOffered } from './feed-pages';

/**
 * Reads the feed from the stored cursor to its end and commits it. Throws FeedNotOffered when the
 * registry answers the feed's path with 404 or 405 (nothing is written then).
 */
export async function syncFromFeed(ctx: StepContext<DeskCache>, limit: number): Promise<FeedRun> {
  const stored = ctx.cache.feedCursor();
  const prefix = `${cursorScope(ctx)}:`;
  let cursor = stored?.startsWith(prefix) ? stored.slice(prefix.length) : '';
  try {
    return await readAndCommit(ctx, cursor, limit);
  } catch (error) {
    // A cursor this registry no longer knows (its database was replaced): start again from a snapshot.
    if (cursor !== '' && error instanceof RegistryClientError && error.kind === 'http' && error.status === 400) {
      cursor = '';
      return readAndCommit(ctx, cursor, limit);
    }
    throw error;
  }
}

async function readAndCommit(ctx: StepContext<DeskCache>, start: string, limit: number): Promise<FeedRun> {
  const snapshot = start === '';
  if (snapshot && cacheIsEmpty(ctx.cache.db)) {
    const load = beginSnapshotLoad(ctx.cache.db, () => ctx.clock.now());
    try {
      return await readIntoSnapshot(ctx, start, limit, load);
    } catch (error) {
      load.rollback();
      throw error;
    }
  }
  return readAndStage(ctx, start, limit);
}
