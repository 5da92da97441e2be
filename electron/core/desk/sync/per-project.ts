// Per-project answers: the internal project with its events, and the project's credits. There is
// one request per project, so a run fetches only projects whose list row changed since their answer
// was fetched (or whose answer is older than perProjectMaxAgeMs), `concurrency` at a time. Answers
// are staged as they arrive and kept across an interrupted run, so the next run resumes.
import { RegistryClientError } from '../../client/errors';
import { forEachLimited } from './concurrency';
import { parseSeedAnswer } from './seed-answers';
import type { StepContext, StepOutcome } from './context';
import type { StagedRow } from '../cache/types';

// Answers are written in batches: one transaction (one WAL commit) per hundred answers rather than
// per handful, yet few enough that they are written before V8 promotes them to its old generation
// (see STAGE_BATCH_ROWS). A failed run still keeps what arrived (see the finally below).
const STAGE_BATCH = 100;

/**
 * Progress is reported about every hundredth of the answers (and at the end), not after each: each
 * report crosses from the sync worker to the main thread, and one per answer was a tenth of the
 * worker's time through the seed interface (2 s of 6,000 answers at --scale 30).
 */
const PROGRESS_STEPS = 100;

export async function syncPerProject(ctx: StepContext, resource: 'projectDetails' | 'credits'): Promise<StepOutcome> {
  // Credits follow what the app may see: every project with examiner:read, else the public ones.
  const scope = resource === 'projectDetails' || ctx.examinerRead ? 'internal' : 'public';
  if (resource === 'projectDetails' && !ctx.examinerRead) return { status: 'skipped', reason: 'the app lacks examiner:read' };
  const listed = ctx.cache.projectHashes(scope);
  const fetched = ctx.cache.perProjectHashes(resource);
  const staged = ctx.cache.write.stagedHashes(resource);
  const now = ctx.clock.now();
  const todo = [...listed].filter(([id, hash]) => {
    if (staged.get(id) === hash) return false;
    const have = fetched.get(id);
    return have === undefined || have.hash !== hash || now - have.fetchedAt >= ctx.tuning.perProjectMaxAgeMs;
  });

  let batch: StagedRow[] = [];
  const flush = () => {
    if (batch.length > 0) ctx.cache.write.stage(resource, batch);
    batch = [];
  };
  let done = 0;
  const every = Math.max(1, Math.floor(todo.length / PROGRESS_STEPS));
  ctx.progress(resource, 0, todo.length);
  try {
    await forEachLimited(todo, ctx.tuning.concurrency, async ([id, listHash]) => {
      try {
        // Checked by the compiled shape check first, zod only when it is not sure (seed-answers.ts).
        const answer =
          resource === 'projectDetails'
            ? parseSeedAnswer(
                ctx.client,
                'getInternalProject',
                (await ctx.client.callRaw('getInternalProject', { params: { projectId: id } })).text,
              ).project
            : parseSeedAnswer(ctx.client, 'getProjectCredits', (await ctx.client.callRaw('getProjectCredits', { params: { id } })).text);
        batch.push({ id, hash: listHash, json: JSON.stringify(answer) });
        if (batch.length >= STAGE_BATCH) flush();
      } catch (error) {
        // A project removed (or hidden) between the list and this request: nothing to keep.
        if (!(error instanceof RegistryClientError && error.kind === 'http' && error.status === 404)) throw error;
      }
      if (++done % every === 0 || done === todo.length) ctx.progress(resource, done, todo.length);
    });
  } finally {
    // What arrived is kept for the next run even when this one fails.
    flush();
  }
  const { written, deleted } = ctx.cache.write.commitPerProject(resource, [...listed.keys()]);
  return { status: 'ok', written, deleted };
}
