// Feed changes into a cache that holds data: staged like the seed path's rows and swapped in at the
// end by the same writers, resource by resource, each in one transaction; removals applied after.
import type { InventoryAccount } from '@shared/desk/api';
import type { ChangedInventory } from '@desk/resources/inventories/writers';
import { stageInventoryAnswer } from '@desk/resources/inventories/sync';
import { clearInternalProjects } from '@desk/resources/projects/sync';
import type { StagedRow } from '@desk/cache/types';
import type { DeskCache } from '@desk/cache';
import type { StepContext, StepOutcome } from './context';
import { STAGE_BATCH_ROWS } from './paged-lists';
import { FEED_ENDPOINT, FeedNotOffered, pageReader } from './feed-pages';
import { cursorScope, FEED_RESOURCES, noteOf, readPages, removedIds, type FeedResource, type FeedRun, type ReadResult } from './feed-read';

type Staged = 'projects' | 'internalProjects' | 'projectDetails' | 'credits' | 'retirements';

/** Changes into a cache that holds data: staged like the seed path's rows and swapped in at the end. */
export async function readAndStage(ctx: StepContext<DeskCache>, start: string, limit: number): Promise<FeedRun> {
  const { cache } = ctx;
  const snapshot = start === '';
  const staged: Staged[] = ['projects', 'internalProjects', 'projectDetails', 'credits', 'retirements'];
  for (const resource of staged) cache.write.beginStaging(resource);
  cache.write.beginInventoryStaging();
  const pending = new Map<Staged, StagedRow[]>(staged.map((r) => [r, []]));
  const flush = (resource: Staged) => {
    const rows = pending.get(resource)!;
    if (rows.length > 0) cache.write.stage(resource, rows);
    pending.set(resource, []);
  };
  let stagedRows = 0;
  const stage = (resource: Staged, row: StagedRow) => {
    stagedRows++;
    const rows = pending.get(resource)!;
    rows.push(row);
    if (rows.length >= STAGE_BATCH_ROWS) flush(resource);
  };
  const inventories = new Map<InventoryAccount, ChangedInventory | null>();
  let read: ReadResult;
  try {
    read = await readPages(
      ctx,
      start,
      limit,
      {
        project: ({ id, hash, json }) => stage('projects', { id, hash, json }),
        internalProject: ({ id, hash, json }, detailsJson) => {
          stage('internalProjects', { id, hash, json });
          stage('projectDetails', { id, hash, json: detailsJson });
        },
        credits: (id, json, listHash) => stage('credits', { id, hash: listHash, json }),
        retirement: ({ id, hash, json }) => stage('retirements', { id, hash, json }),
        inventory: (account, inventory) => {
          inventories.set(account, stageInventoryAnswer(ctx, account, inventory.bytes, FEED_ENDPOINT));
        },
      },
      pageReader(ctx, false),
    );
  } catch (error) {
    if (error instanceof FeedNotOffered) cache.write.discardInventoryStaging();
    throw error;
  }
  for (const resource of staged) flush(resource);
  const skipped: StepOutcome = { status: 'skipped', reason: 'the app lacks examiner:read' };

  if (!snapshot && stagedRows === 0 && inventories.size === 0 && read.removed.size === 0 && read.organizations.size === 0) {
    // Nothing changed since the cursor: nothing to swap in (at --scale 100 the empty swap-ins,
    // which re-read every project's id to keep per-project answers, took most of a no-change run).
    const ok: StepOutcome = { status: 'ok', written: 0, deleted: 0, note: noteOf('changes', read.items, 0) };
    const outcomes: Record<FeedResource, StepOutcome> = {
      projects: ok,
      internalProjects: ctx.examinerRead ? ok : skipped,
      projectDetails: ctx.examinerRead ? ok : skipped,
      credits: ok,
      inventories: ok,
      retirements: ok,
    };
    cache.write.markSynced(FEED_RESOURCES.filter((r) => outcomes[r].status === 'ok'));
    cache.write.setFeedCursor(`${cursorScope(ctx)}:${read.cursor}`);
    return { outcomes, unchanged: true };
  }

  // Swap in, resource by resource, as the seed path does (each commit is one transaction).
  const outcomes = {} as Record<FeedResource, StepOutcome>;
  const full = { full: snapshot, pageHashes: [] };
  outcomes.projects = { status: 'ok', ...cache.write.commitProjects('public', full) };
  if (ctx.examinerRead) {
    outcomes.internalProjects = { status: 'ok', ...cache.write.commitProjects('internal', full) };
  } else {
    // Internal data the app may no longer see must not linger (as the seed path's step does).
    clearInternalProjects(ctx);
    outcomes.internalProjects = skipped;
  }
  const removed = removedIds(read);
  const removedRows = cache.write.removeFeedRows(removed);
  // Per-project answers are kept for the projects listed (as the seed path's commit does).
  const listed = (scope: 'public' | 'internal') => [...cache.projectHashes(scope).keys()];
  if (ctx.examinerRead) {
    outcomes.projectDetails = { status: 'ok', ...cache.write.commitPerProject('projectDetails', listed('internal')) };
  } else {
    cache.write.beginStaging('projectDetails');
    outcomes.projectDetails = skipped;
  }
  outcomes.credits = { status: 'ok', ...cache.write.commitPerProject('credits', listed(ctx.examinerRead ? 'internal' : 'public')) };
  const changed = [...inventories.values()].filter((c): c is ChangedInventory => c !== null);
  outcomes.inventories = { status: 'ok', ...cache.write.commitInventories(changed) };
  outcomes.retirements = {
    status: 'ok',
    ...cache.write.commitRetirements({ full: snapshot, pageHashes: [], watermark: null, total: null }),
  };
  const installed = new Set(ctx.installations.map((i) => i.organizationId));
  cache.write.putFeedOrganizations([...read.organizations.values()], installed, removed.organizations);
  cache.write.setFeedCursor(`${cursorScope(ctx)}:${read.cursor}`);
  const note = noteOf(snapshot ? 'snapshot' : 'changes', read.items, removedRows);
  for (const resource of FEED_RESOURCES) {
    const outcome = outcomes[resource];
    if (outcome.status === 'ok') outcomes[resource] = { ...outcome, note };
  }
  return { outcomes, unchanged: false };
}
