// The retirements list through the seed interface: newest first, usually read only until a page
// holds nothing new; a full pass at times (see syncRetirements), loaded straight into an empty table
// on the first sync.
import type { StepContext, StepOutcome } from '@desk/sync/context';
import { readAllPages } from '@desk/sync/paged-lists';
import type { createRetirementWriters } from './writers';
import type { createRetirementQueries } from './queries';
import type { CacheWith } from '@desk/cache/core';

/** The cache as the retirements' step use it. */
export type RetirementsContext = StepContext<
  CacheWith<ReturnType<typeof createRetirementWriters>, ReturnType<typeof createRetirementQueries>>
>;

/**
 * Retirements are listed newest first and rarely change once made, so a run normally reads only
 * until a page holds nothing new. A full pass (which also sees finalized or removed ones further
 * down) runs the first time, every `retirementsFullEveryMs`, and whenever the counts disagree.
 */
export async function syncRetirements(ctx: RetirementsContext, options: { forceFull?: boolean } = {}): Promise<StepOutcome> {
  const full = options.forceFull === true || fullPassDue(ctx);
  if (full && ctx.cache.countRetirements() === 0) return loadRetirements(ctx);
  ctx.cache.write.beginStaging('retirements');
  const read = await readAllPages(ctx, 'retirements', 'listRetirementsV1', { stopWhenKnown: !full });
  const { written, deleted } = ctx.cache.write.commitRetirements({
    full,
    pageHashes: read.pageHashes,
    watermark: read.newest,
    total: read.total,
  });
  if (!full && read.total !== null && ctx.cache.countRetirements() !== read.total) {
    // Something changed below the newest pages (or was removed): read it all once.
    const again = await syncRetirements(ctx, { forceFull: true });
    return again.status === 'ok' ? { ...again, written: again.written + written, note: 'counts differed: full pass' } : again;
  }
  return { status: 'ok', written, deleted, ...(full ? { note: 'full pass' } : {}) };
}

/** Whether a full pass is due: the first one, a failed last one, or the last full one too old. */
export function fullPassDue(ctx: RetirementsContext): boolean {
  const state = ctx.cache.syncState('retirements');
  return (
    !state?.last_full_at || state.last_success_at === null || ctx.clock.now() - state.last_full_at >= ctx.tuning.retirementsFullEveryMs
  );
}

/** The first full pass (no retirement cached): rows written straight into the table (writers.ts beginRetirementsLoad). */
async function loadRetirements(ctx: RetirementsContext): Promise<StepOutcome> {
  const load = ctx.cache.write.beginRetirementsLoad();
  try {
    const read = await readAllPages(ctx, 'retirements', 'listRetirementsV1', { stopWhenKnown: false, load });
    const { written, deleted } = load.commit({ pageHashes: read.pageHashes, watermark: read.newest, total: read.total });
    return { status: 'ok', written, deleted, note: 'full pass' };
  } catch (error) {
    load.rollback();
    throw error;
  }
}
