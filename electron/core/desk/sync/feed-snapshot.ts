// A feed snapshot into an empty cache: its rows go straight into their tables, inside the one
// transaction of a snapshot load (cache/snapshot-writers.ts, each kind's part), not staged.
import type { DeskCache } from '@desk/cache';
import type { SnapshotLoad } from '@desk/cache/snapshot-writers';
import type { FeedPass } from '@desk/resources/feed-part';
import type { FeedCache } from '@desk/resources/list';
import type { StepContext, StepOutcome } from './context';
import { cursorScope, feedOutcomes, noteOf, readPages, removedOf, removeFeedRows, type FeedRun } from './feed-read';
import { pageReader } from './feed-pages';
import { liftGuardWhileNothingVerified } from '@desk/verification/guard';

/**
 * A snapshot into an empty cache: rows go straight into their tables, in the load's one transaction.
 * The load saw every project, so the run answers their proponents too.
 */
export async function readIntoSnapshot(ctx: StepContext<DeskCache>, start: string, limit: number, load: SnapshotLoad): Promise<FeedRun> {
  // The load is what this sync waits for: small pages are made ready on a thread of their own.
  const reader = pageReader(ctx, true);
  // With no verified movement in the cache the guard's triggers cannot refuse a row: lifted for the
  // pages, put back before the history's keep brings the movements (verification/guard.ts).
  const putGuardBack = liftGuardWhileNothingVerified(ctx.cache.db);
  const pagesCtx: StepContext<DeskCache> = {
    ...ctx,
    beforeKeep: async () => {
      putGuardBack();
      await ctx.beforeKeep?.();
    },
  };
  // The load's own idle work first (search entries, indexes of kinds whose pages have ended), then the history's.
  const idleWork = (ended: ReadonlySet<string>) => load.idleWork(ended) ?? ctx.aheadOfKeep?.() ?? null;
  const read = await readPages(pagesCtx, start, limit, load.kinds, idleWork, reader).finally(() => reader?.close());
  const { cache } = ctx;
  const pass: FeedPass<FeedCache> = { ctx, snapshot: true, removed: removedOf(read) };
  load.beforeRemovals();
  const removedRows = removeFeedRows(cache, pass.removed);
  const counts = load.finish(ctx.examinerRead);
  load.afterFinish(pass);
  cache.write.setFeedCursor(`${cursorScope(ctx)}:${read.cursor}`);
  // The load's WAL is checkpointed in the background meanwhile (cache/deferred-checkpoint.ts).
  void load.commit();
  const note = noteOf('loaded', read.items, removedRows);
  const written = Object.entries(counts).map(([resource, n]): [string, StepOutcome] => [
    resource,
    { status: 'ok', written: n, deleted: 0, note },
  ]);
  return {
    outcomes: feedOutcomes(ctx, Object.fromEntries(written)),
    unchanged: false,
    ...(load.parts.projects ? { proponents: load.parts.projects.proponentIds() } : {}),
  };
}
