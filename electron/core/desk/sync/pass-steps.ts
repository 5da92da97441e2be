// The seed part of a sync pass (engine.ts): each resource's step through the seed interface.
import type { SyncResource } from '@shared/desk/api';
import type { DeskCache } from '@desk/cache';
import { SEED_STEPS } from '@desk/resources/list';
import type { SeedStepOf, StepRun } from '@desk/resources/kind';
import type { StepContext, StepOutcome } from './context';
import { createPrefetch } from './prefetch';
import { failResource, goOffline, messageOf, unreachable, usingFeed, type Pass, type PassEngine } from './pass-state';

/** The run as the steps see it (resources/kind.ts). */
function stepRun(engine: PassEngine, wanted: ReadonlySet<SyncResource>, ahead: StepRun['ahead']): StepRun {
  const { state } = engine;
  return {
    wanted,
    ahead,
    feed: usingFeed(engine),
    proponents: () => {
      // The proponents (every project's JSON read: a tenth of a second at --scale 100) are read
      // again unless every feed pass since they were read found nothing changed.
      if (!usingFeed(engine) || state.proponents === null) state.proponents = engine.cache.proponentIds();
      return state.proponents;
    },
  };
}

/**
 * Asks ahead the first requests of the steps still to run whose `after` steps have ended (or do not
 * run in this pass), each once: while a step writes, the next ones' answers are on their way.
 */
function prefetcher(steps: readonly SeedStepOf<DeskCache>[], ctx: StepContext<DeskCache>, run: StepRun) {
  const ended = new Set<SyncResource>();
  const runs = new Set(steps.map((s) => s.resource));
  const waiting = steps.filter((s) => s.prefetch);
  return {
    ended(resource: SyncResource | null) {
      if (resource) ended.add(resource);
      for (const s of [...waiting]) {
        if (ended.has(s.resource) || !s.prefetch!.after.every((r) => ended.has(r) || !runs.has(r))) continue;
        waiting.splice(waiting.indexOf(s), 1);
        try {
          s.prefetch!.ask(ctx, run);
        } catch {
          // Asking ahead is only a head start: the step itself meets whatever went wrong, in its turn.
        }
      }
    },
  };
}

/** The seed part of a pass: the resources the feed did not settle, step by step in run order. */
export async function seedSteps(pass: Pass, passCtx: StepContext<DeskCache>): Promise<void> {
  const { engine } = pass;
  const { cache, clock, history } = engine;
  // Installed organizations' records come with the warehouses, from the installations' feeds.
  const wanted = new Set(pass.resources);
  if (usingFeed(engine) && wanted.has('organizations')) wanted.add('warehouses');
  // A first sync through the seed interface: the WAL is checkpointed once, after the run.
  const checkpoint = usingFeed(engine) ? null : cache.write.deferCheckpointsIfEmpty();
  // Steps started alongside an earlier one: awaited in their turn, even once offline (they ran).
  const started = new Map<SyncResource, Promise<StepOutcome>>();
  const ahead = (resource: SyncResource, outcome: Promise<StepOutcome>) => {
    pass.stepStarts.set(resource, clock.now());
    started.set(resource, outcome);
  };
  const run = stepRun(engine, wanted, ahead);
  const steps = SEED_STEPS.filter((s) => wanted.has(s.resource) && !pass.done.has(s.resource));
  // The steps send through `taker`, which hands them what was asked ahead (prefetch.ts).
  const prefetch = createPrefetch(passCtx.client);
  const { probe } = pass;
  if (probe?.answer) prefetch.adopt('listInternalProjects', { query: probe.query }, probe.answer, probe.answerMs ?? 0);
  const ctx: StepContext<DeskCache> = { ...passCtx, client: prefetch.taker };
  const asking = prefetcher(steps, { ...passCtx, client: prefetch.asker }, run);
  asking.ended(null);
  for (const { resource, step } of steps) {
    const running = started.get(resource);
    if (pass.offline && !running) {
      pass.results[resource] = { status: 'not_run', reason: 'the registry is unreachable' };
      continue;
    }
    if (!running) {
      pass.resourceStart = clock.now();
      pass.stepStarts.set(resource, pass.resourceStart);
    }
    try {
      const outcome = await (running ?? step(ctx, run));
      if (outcome.status === 'skipped') cache.write.markSkipped(resource);
      pass.results[resource] = outcome;
    } catch (error) {
      const message = `${resource}: ${messageOf(error)}`;
      pass.runError = message;
      failResource(pass, resource, message);
      if (unreachable(error)) goOffline(pass);
    }
    if (!pass.offline) asking.ended(resource);
  }
  // Nothing asked ahead is still in flight when the pass reports (what no step took is dropped).
  await prefetch.settle();
  // Not waited for: the host runs it after the run (deferred-checkpoint.ts).
  if (checkpoint) void checkpoint();
  engine.state.lastError = history?.end() ?? pass.runError;
}
