// Feed changes into a cache that holds data: staged like the seed path's rows and swapped in at the
// end by the same writers, kind by kind, each in one transaction; removals applied between the
// kinds that swap in before them and those after (each kind's feed part, resources/feed-part.ts).
import type { StagedRow, CacheResource } from '@desk/cache/types';
import type { DeskCache } from '@desk/cache';
import type { FeedOutcomes, FeedPass } from '@desk/resources/feed-part';
import { FEED_KINDS, FEED_RESOURCES, type FeedCache } from '@desk/resources/list';
import type { StepContext, StepOutcome } from './context';
import { STAGE_BATCH_ROWS } from './paged-lists';
import { FeedNotOffered, pageReader } from './feed-pages';
import { cursorScope, feedOutcomes, noteOf, readPages, removedOf, removeFeedRows, type FeedRun, type ReadResult } from './feed-read';

/** The staging area's rows of a pass, written in batches; `count` says how many were staged. */
function stagingBatches(cache: DeskCache) {
  const resources = FEED_KINDS.flatMap(({ feed }) => feed.staging);
  for (const resource of resources) cache.write.beginStaging(resource);
  const pending = new Map<CacheResource, StagedRow[]>(resources.map((r) => [r, []]));
  const flush = (resource: CacheResource) => {
    const rows = pending.get(resource)!;
    if (rows.length > 0) cache.write.stage(resource, rows);
    pending.set(resource, []);
  };
  let count = 0;
  return {
    stage(resource: CacheResource, row: StagedRow): void {
      count++;
      const rows = pending.get(resource)!;
      rows.push(row);
      if (rows.length >= STAGE_BATCH_ROWS) flush(resource);
    },
    flushAll: () => resources.forEach(flush),
    count: () => count,
  };
}

/** Changes into a cache that holds data: staged like the seed path's rows and swapped in at the end. */
export async function readAndStage(ctx: StepContext<DeskCache>, start: string, limit: number): Promise<FeedRun> {
  const { cache } = ctx;
  const snapshot = start === '';
  const batches = stagingBatches(cache);
  let read: ReadResult | null = null;
  const pass: FeedPass<FeedCache> = { ctx, snapshot, removed: (type) => removedOf(read!)(type) };
  const parts = FEED_KINDS.map(({ folder, feed }) => ({ folder, feed, part: feed.staged(pass, batches.stage) }));
  try {
    read = await readPages(ctx, start, limit, parts, null, pageReader(ctx, false));
  } catch (error) {
    if (error instanceof FeedNotOffered) for (const { part } of parts) part.abandon?.();
    throw error;
  }
  batches.flushAll();

  if (!snapshot && batches.count() === 0 && read.removed.size === 0 && !parts.some(({ part }) => part.changed?.())) {
    // Nothing changed since the cursor: nothing to swap in (at --scale 100 the empty swap-ins,
    // which re-read every project's id to keep per-project answers, took most of a no-change run).
    const ok: StepOutcome = { status: 'ok', written: 0, deleted: 0, note: noteOf('changes', read.items, 0) };
    const outcomes = feedOutcomes(ctx, {}, ok);
    cache.write.markSynced(FEED_RESOURCES.filter((r) => outcomes[r]!.status === 'ok'));
    cache.write.setFeedCursor(`${cursorScope(ctx)}:${read.cursor}`);
    return { outcomes, unchanged: true };
  }

  // Swap in, kind by kind, as the seed path does (each commit is one transaction).
  const given: FeedOutcomes = {};
  for (const { part } of parts) Object.assign(given, part.beforeRemovals?.());
  const removedRows = removeFeedRows(cache, pass.removed);
  for (const { part } of parts) Object.assign(given, part.afterRemovals?.());
  cache.write.setFeedCursor(`${cursorScope(ctx)}:${read.cursor}`);
  const note = noteOf(snapshot ? 'snapshot' : 'changes', read.items, removedRows);
  const outcomes = feedOutcomes(ctx, given);
  for (const resource of FEED_RESOURCES) {
    const outcome = outcomes[resource]!;
    if (outcome.status === 'ok') outcomes[resource] = { ...outcome, note };
  }
  return { outcomes, unchanged: false };
}
