// One run of the sync engine (engine.ts schedules them): opened with the app's examiner grant and the
// registry's history check, then the feed part (pass-feed.ts) and the seed steps (pass-steps.ts).
import type { SyncResource } from '@shared/desk/api';
import type { DeskCache } from '@desk/cache';
import type { BesideCheck } from '@desk/verification/history-check';
import type { StepContext } from './context';
import { probeExaminerRead, SMALLEST_PROBE } from '@desk/examiner-probe';
import { FEED_RESOURCES } from './feed';
import { feedPass } from './pass-feed';
import { checkFailed, setOnline, type Pass, type PassEngine } from './pass-state';
import { pageCall } from './paged-lists';
import { seedSteps } from './pass-steps';
import type { SyncRunResult } from './types';

/** What every step's context holds, whatever the grant: progress is timed from the step's start. */
function contextBase(pass: Pass) {
  const { client, cache, clock, tuning, pageReaderThread, state, emit } = pass.engine;
  return {
    client,
    cache,
    clock,
    tuning,
    ...(pageReaderThread ? { pageReaderThread } : {}),
    progress(resource: SyncResource, done: number, total: number | null) {
      const elapsed = clock.now() - (pass.stepStarts.get(resource) ?? pass.resourceStart);
      const etaMs = total !== null && done > 0 && total >= done ? Math.round((elapsed / done) * (total - done)) : null;
      state.progress = { resource, done, total, etaMs };
      emit({ type: 'progress', progress: state.progress });
    },
  };
}

/**
 * Opens a pass: the app's examiner grant, and the registry's history checked first (or, with the
 * feed, its check started beside the download). The steps' context, or null when either failed.
 */
async function openPass(pass: Pass, feedFirst: boolean): Promise<{ ctx: StepContext<DeskCache>; beside: BesideCheck | null } | null> {
  const { client, history, tuning } = pass.engine;
  try {
    const installations = await pass.engine.installations();
    // The check reads public endpoints: it needs no token, so it starts beside the grant (a round trip sooner).
    const checked = history && !feedFirst ? history.begin() : null;
    checked?.catch(() => {});
    // The grant asked with the kept app token (examiner-probe.ts), not read off a token minted per
    // pass; when the seed steps will read the internal list, the probe asks its first page.
    const readsInternalList = !feedFirst && pass.resources.has('internalProjects');
    const probed = await probeExaminerRead(client, readsInternalList ? pageCall({ tuning }, 0).query : SMALLEST_PROBE).catch(
      async (error: unknown) => {
        await checked?.catch(() => {});
        throw error;
      },
    );
    pass.probe = probed;
    let beside: BesideCheck | null = null;
    if (history && feedFirst) beside = history.beside();
    else await checked;
    const ctx: StepContext<DeskCache> = {
      ...contextBase(pass),
      installations,
      examinerRead: probed.examinerRead,
      ...(beside ? { beforeKeep: beside.keep, aheadOfKeep: beside.aheadOfKeep } : {}),
    };
    setOnline(pass.engine, true);
    return { ctx, beside };
  } catch (error) {
    checkFailed(pass, error);
    return null;
  }
}

/**
 * Builds the indexes a first sync's load left to build after it, if the desk stopped before its
 * background build did (cache/deferred-indexes.ts): the run's lists sort by them. A writer that
 * holds the cache past the busy timeout leaves them to the next run.
 */
function buildLeftIndexes(engine: PassEngine): void {
  try {
    engine.cache.write.buildDeferredIndexes();
  } catch {
    // Still deferred: the cache answers every read without them, only slower to sort.
  }
}

/** One run of the engine over `resources`: the feed first where it serves, then the seed steps. */
export async function runPass(engine: PassEngine, resources: Set<SyncResource>): Promise<SyncRunResult> {
  const { clock, tuning, state } = engine;
  const startedAt = clock.now();
  buildLeftIndexes(engine);
  const pass: Pass = {
    engine,
    resources,
    results: {},
    offline: false,
    runError: null,
    done: new Set(),
    resourceStart: startedAt,
    stepStarts: new Map(),
    probe: null,
  };
  const feedFirst = tuning.feed && state.feedOffered !== false && FEED_RESOURCES.some((r) => resources.has(r));
  // With the feed, the history is replayed while its pages download, and kept before the pass keeps
  // anything (ctx.beforeKeep); otherwise it is checked before the run writes.
  const opened = await openPass(pass, feedFirst);
  let ctx = opened?.ctx ?? null;
  if (opened && feedFirst) ctx = await feedPass(pass, opened.ctx, opened.beside);
  if (ctx) await seedSteps(pass, ctx);
  state.progress = null;
  const ok = Object.values(pass.results).every((r) => r.status === 'ok' || r.status === 'skipped');
  return {
    ok,
    offline: pass.offline,
    startedAt: new Date(startedAt).toISOString(),
    finishedAt: new Date(clock.now()).toISOString(),
    results: pass.results,
    ...(opened ? { examinerRead: opened.ctx.examinerRead } : {}),
  };
}
