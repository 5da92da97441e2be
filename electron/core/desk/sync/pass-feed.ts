// The feed part of a sync pass (engine.ts): the resources the changes feed serves, in one go.
import type { DeskCache } from '@desk/cache';
import { HistoryChanged } from '@desk/verification/check';
import type { BesideCheck } from '@desk/verification/history-check';
import type { StepContext } from './context';
import { FEED_RESOURCES, FeedNotOffered, syncFromFeed } from './feed';
import { checkFailed, failResource, goOffline, messageOf, unreachable, type Pass } from './pass-state';

/**
 * The feed part of a pass: the feed's resources in one go. The context to run the seed steps with,
 * or null when the registry's history failed its check (nothing more is run or written).
 */
export async function feedPass(
  pass: Pass,
  ctx: StepContext<DeskCache>,
  beside: BesideCheck | null,
): Promise<StepContext<DeskCache> | null> {
  const { cache, clock, tuning, state, history } = pass.engine;
  let feedKept = false;
  pass.resourceStart = clock.now();
  const proponentsBefore = state.proponents;
  try {
    // Until the pass is over, project rows may change: the proponents read last are then stale.
    state.proponents = null;
    const { outcomes, unchanged, proponents } = await syncFromFeed(ctx, tuning.feedLimit);
    state.feedOffered = true;
    feedKept = true;
    if (unchanged) state.proponents = proponentsBefore;
    // A snapshot loaded into an empty cache knows every project's proponents.
    else if (proponents) state.proponents = proponents;
    for (const resource of FEED_RESOURCES) {
      const outcome = outcomes[resource]!;
      if (outcome.status === 'skipped') cache.write.markSkipped(resource);
      pass.results[resource] = outcome;
      pass.done.add(resource);
    }
  } catch (error) {
    if (beside?.threw(error)) {
      if (error instanceof HistoryChanged) history!.keepFailure(error);
      checkFailed(pass, error);
      return null;
    } else if (error instanceof FeedNotOffered) state.feedOffered = false;
    else feedFailed(pass, error);
  }
  // A pass that failed kept nothing, perhaps not the replay beside it either: checked again before the steps write.
  if (history && beside && !feedKept && !pass.offline) {
    try {
      await history.begin();
    } catch (error) {
      checkFailed(pass, error);
      return null;
    }
  }
  return ctx;
}

/** The feed failed (not its history): each of its resources asked for failed with it. */
function feedFailed(pass: Pass, error: unknown) {
  const message = `changes feed: ${messageOf(error)}`;
  pass.runError = message;
  for (const resource of FEED_RESOURCES.filter((r) => pass.resources.has(r))) {
    failResource(pass, resource, message);
    pass.done.add(resource);
  }
  if (unreachable(error)) goOffline(pass);
}
