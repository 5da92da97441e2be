// Per-project answers: the internal project with its events, and the project's credits. There is
// one request per project and resource, so a run fetches only projects whose list row changed since
// their answer was fetched (or whose answer is older than perProjectMaxAgeMs), `concurrency` at a
// time. Answers are staged as they arrive (or, into an empty table, written straight in) and kept
// across an interrupted run, so the next run resumes.
//
// Details and credits are fetched in one pass when both are asked for: a project's two requests
// one after the other (as the registry answers them best: the same project's rows are warm in its
// page cache), from one pool of requests in flight, each resource committed on its own at the end.
import { RegistryClientError } from '@desk/client/errors';
import { forEachLimited } from '@desk/sync/concurrency';
import { parseSeedAnswer } from '@desk/sync/seed-answers';
import type { StepContext, StepOutcome } from '@desk/sync/context';
import type { StagedRow } from '@desk/cache/types';
import type { createProjectAnswerWriters } from './writers';
import type { createProjectAnswerQueries } from './queries';
import type { createProjectQueries } from '@desk/resources/projects/queries';
import type { CacheWith } from '@desk/cache/core';

/** The cache as the per-project answers' steps (they read the listed projects) use it. */
export type AnswersContext = StepContext<
  CacheWith<
    ReturnType<typeof createProjectAnswerWriters>,
    ReturnType<typeof createProjectAnswerQueries> & ReturnType<typeof createProjectQueries>
  >
>;

export type PerProjectResource = 'projectDetails' | 'credits';

// Answers are written in batches: one transaction (one WAL commit) per hundred answers rather than
// per handful, yet few enough that they are written before V8 promotes them to its old generation
// (see STAGE_BATCH_ROWS). A failed run still keeps what arrived (see the finally below).
const STAGE_BATCH = 100;

/**
 * Progress is reported about every hundredth of the answers (and at the end), not after each: each
 * report crosses from the sync worker to the main thread, and one per answer was a tenth of the
 * worker's time through the seed interface (bench/README.md).
 */
const PROGRESS_STEPS = 100;

/** One resource's part of a pass: what it fetches, what arrived, and how it ended. */
interface Part {
  resource: PerProjectResource;
  listed: Map<string, string>;
  todo: [string, string][];
  batch: StagedRow[];
  /** Into an empty table (a first sync): answers written straight in, not staged (writers.ts loadPerProject). */
  load: boolean;
  loaded: number;
  done: number;
  every: number;
  failure?: { error: unknown };
}

function planPart(ctx: AnswersContext, resource: PerProjectResource): Part {
  // Credits follow what the app may see: every project with examiner:read, else the public ones.
  const scope = resource === 'projectDetails' || ctx.examinerRead ? 'internal' : 'public';
  const listed = ctx.cache.projectHashes(scope);
  const fetched = ctx.cache.perProjectHashes(resource);
  const staged = ctx.cache.write.stagedHashes(resource);
  const now = ctx.clock.now();
  const todo = [...listed].filter(([id, hash]) => {
    if (staged.get(id) === hash) return false;
    const have = fetched.get(id);
    return have === undefined || have.hash !== hash || now - have.fetchedAt >= ctx.tuning.perProjectMaxAgeMs;
  });
  const load = ctx.cache.write.perProjectLoadable(resource);
  return { resource, listed, todo, batch: [], load, loaded: 0, done: 0, every: Math.max(1, Math.floor(todo.length / PROGRESS_STEPS)) };
}

function flush(ctx: AnswersContext, part: Part): void {
  if (part.batch.length === 0) return;
  if (part.load) {
    ctx.cache.write.loadPerProject(part.resource, part.batch);
    part.loaded += part.batch.length;
  } else ctx.cache.write.stage(part.resource, part.batch);
  part.batch = [];
}

async function fetchAnswer(ctx: AnswersContext, resource: PerProjectResource, id: string): Promise<unknown> {
  // Checked by the compiled shape check first, zod only when it is not sure (seed-answers.ts).
  return resource === 'projectDetails'
    ? parseSeedAnswer(
        ctx.client,
        'getInternalProject',
        (await ctx.client.callRaw('getInternalProject', { params: { projectId: id } })).text,
      ).project
    : parseSeedAnswer(ctx.client, 'getProjectCredits', (await ctx.client.callRaw('getProjectCredits', { params: { id } })).text);
}

/**
 * Fetches and commits the per-project answers of `resources` in one pass. Each resource's outcome
 * is its own: one that fails (its first failure stops its requests, the other's go on) keeps its
 * previous answers and rejects, with what arrived staged for the next run.
 */
export function syncPerProjectResources(
  ctx: AnswersContext,
  resources: readonly PerProjectResource[],
): Record<PerProjectResource, Promise<StepOutcome>> {
  const outcomes = {} as Record<PerProjectResource, Promise<StepOutcome>>;
  const parts: Part[] = [];
  for (const resource of resources) {
    if (resource === 'projectDetails' && !ctx.examinerRead)
      outcomes[resource] = Promise.resolve({ status: 'skipped', reason: 'the app lacks examiner:read' });
    else parts.push(planPart(ctx, resource));
  }
  // A project's requests side by side: [details of p1, credits of p1, details of p2, …].
  const tasks: [Part, string, string][] = [];
  for (let i = 0; parts.some((p) => i < p.todo.length); i++)
    for (const part of parts) if (i < part.todo.length) tasks.push([part, ...part.todo[i]!]);
  const pass = (async () => {
    for (const part of parts) ctx.progress(part.resource, 0, part.todo.length);
    try {
      await forEachLimited(tasks, ctx.tuning.concurrency, async ([part, id, listHash]) => {
        if (part.failure) return;
        try {
          const answer = await fetchAnswer(ctx, part.resource, id);
          part.batch.push({ id, hash: listHash, json: JSON.stringify(answer) });
          if (part.batch.length >= STAGE_BATCH) flush(ctx, part);
        } catch (error) {
          // A project removed (or hidden) between the list and this request: nothing to keep.
          if (!(error instanceof RegistryClientError && error.kind === 'http' && error.status === 404)) {
            part.failure ??= { error };
            return;
          }
        }
        if (++part.done % part.every === 0 || part.done === part.todo.length) ctx.progress(part.resource, part.done, part.todo.length);
      });
    } finally {
      // What arrived is kept for the next run even when this one fails.
      for (const part of parts) flush(ctx, part);
    }
  })();
  for (const part of parts) {
    const outcome = pass.then((): StepOutcome => {
      if (part.failure) throw part.failure.error;
      const { written, deleted } = part.load
        ? ctx.cache.write.finishPerProjectLoad(part.resource, part.loaded)
        : ctx.cache.write.commitPerProject(part.resource, [...part.listed.keys()]);
      return { status: 'ok', written, deleted };
    });
    // Awaited by the caller in its turn: a failure meanwhile is not an unhandled rejection.
    outcome.catch(() => undefined);
    outcomes[part.resource] = outcome;
  }
  return outcomes;
}

export function syncPerProject(ctx: AnswersContext, resource: PerProjectResource): Promise<StepOutcome> {
  return syncPerProjectResources(ctx, [resource])[resource];
}
