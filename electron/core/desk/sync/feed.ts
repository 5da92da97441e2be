// Sync from the registry's changes feed (GET /sync/v1/changes, beyond the seed interface): one
// stream of what changed since the stored cursor replaces the project lists, every per-project
// request, the inventories and the retirement pages. Items are checked one by one against the
// tolerant schemas, staged like the seed path's rows (the same JSON, the same hashes, so both paths
// fill the cache identically) and swapped in at the end in the same transactions; removals are
// applied after. The cursor is stored only once everything is committed, so a run that fails
// leaves the previous data and cursor, and the next run asks again from there.
//
// Warehouses and organization records are not taken from it: they need installation tokens (the
// feed is read with the app's), and the seed steps that follow are already incremental.
import { z } from 'zod';
import { INVENTORY_ACCOUNTS, type InventoryAccount } from '../../../../shared/desk/api';
import { feedItem, type EndpointId } from '../../../../shared/registry/endpoints';
import { tolerant, type Organization } from '../../../../shared/registry/resources';
import { RegistryClientError } from '../../client/errors';
import { answerBreaksContract, answerNotJson } from '../../client/registry-client';
import { hashJson } from '../cache/rows';
import type { ChangedInventory } from '../cache/inventory-writers';
import type { StagedRow } from '../cache/types';
import type { StepContext, StepOutcome } from './context';
import { STAGE_BATCH_ROWS } from './paged-lists';
import { stageInventoryAnswer } from './small-resources';

/** The resources one feed pass brings up to date. */
export const FEED_RESOURCES = ['projects', 'internalProjects', 'projectDetails', 'credits', 'inventories', 'retirements'] as const;
export type FeedResource = (typeof FEED_RESOURCES)[number];

const ENDPOINT: EndpointId = 'getChanges';
const itemSchema = feedItem(tolerant);
const envelope = z.object({ changes: z.array(z.unknown()), removed: z.array(z.unknown()), cursor: z.string(), more: z.boolean() });
const removal = tolerant.object({ type: z.string(), id: z.string() });

/** The registry does not offer the feed (the public registry the seed interface describes does not). */
export class FeedNotOffered extends Error {}

/** What the stored cursor was taken with: a change of the app's view starts again from a snapshot. */
const cursorScope = (ctx: StepContext) => (ctx.examinerRead ? 'examiner' : 'public');

type Staged = 'projects' | 'internalProjects' | 'projectDetails' | 'credits' | 'retirements';

/**
 * Reads the feed from the stored cursor to its end and commits it. Throws FeedNotOffered when the
 * registry answers the feed's path with 404 or 405 (nothing is written then).
 */
export async function syncFromFeed(ctx: StepContext, limit: number): Promise<Record<FeedResource, StepOutcome>> {
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

async function readAndCommit(ctx: StepContext, start: string, limit: number): Promise<Record<FeedResource, StepOutcome>> {
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
  const stage = (resource: Staged, row: StagedRow) => {
    const rows = pending.get(resource)!;
    rows.push(row);
    if (rows.length >= STAGE_BATCH_ROWS) flush(resource);
  };
  // Removals by resource and id; an item arriving later for the same id cancels its removal.
  const removed = new Map<string, Set<string>>();
  const unremove = (type: string, id: string) => removed.get(type)?.delete(id);
  const inventories = new Map<InventoryAccount, ChangedInventory | null>();
  const organizations = new Map<string, Organization>();
  const publicHashes = new Map<string, string>();
  const internalHashes = new Map<string, string>();
  let items = 0;

  let cursor = start;
  ctx.progress('projects', 0, null);
  for (;;) {
    let text: string;
    try {
      text = (await ctx.client.callRaw(ENDPOINT, { query: { cursor, limit } })).text;
    } catch (error) {
      if (error instanceof RegistryClientError && error.kind === 'http' && (error.status === 404 || error.status === 405)) {
        cache.write.discardInventoryStaging();
        throw new FeedNotOffered(`the registry does not offer ${ENDPOINT}`);
      }
      throw error;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw answerNotJson(ENDPOINT);
    }
    const page = envelope.safeParse(json);
    if (!page.success) throw answerBreaksContract(ENDPOINT, page.error.issues);
    const hashesOfPage = { public: new Map<string, string>(), internal: new Map<string, string>() };
    for (const [i, raw] of page.data.changes.entries()) {
      const checked = itemSchema.safeParse(raw);
      if (!checked.success)
        throw answerBreaksContract(
          ENDPOINT,
          checked.error.issues.map((issue) => ({ ...issue, path: ['changes', i, ...issue.path] })),
        );
      const item = checked.data;
      items++;
      switch (item.type) {
        case 'project': {
          const json = JSON.stringify(item.project);
          const hash = hashJson(json);
          hashesOfPage.public.set(item.project.id, hash);
          publicHashes.set(item.project.id, hash);
          unremove('project', item.project.id);
          stage('projects', { id: item.project.id, hash, json });
          break;
        }
        case 'internalProject': {
          // The list row is the internal project without its events (both are presented alike).
          const { events: _events, ...row } = item.project;
          const json = JSON.stringify(row);
          const hash = hashJson(json);
          hashesOfPage.internal.set(row.id, hash);
          internalHashes.set(row.id, hash);
          unremove('internalProject', row.id);
          stage('internalProjects', { id: row.id, hash, json });
          stage('projectDetails', { id: row.id, hash, json: JSON.stringify(item.project) });
          break;
        }
        case 'projectCredits': {
          // The answer is filed under the list row it goes with, as the seed path does.
          const listHash = (ctx.examinerRead ? hashesOfPage.internal : hashesOfPage.public).get(item.id) ?? '';
          unremove('projectCredits', item.id);
          stage('credits', { id: item.id, hash: listHash, json: JSON.stringify(item.credits) });
          break;
        }
        case 'retirement': {
          const json = JSON.stringify(item.retirement);
          unremove('retirement', item.retirement.id);
          stage('retirements', { id: item.retirement.id, hash: hashJson(json), json });
          break;
        }
        case 'inventory': {
          const account = item.account;
          if (!INVENTORY_ACCOUNTS.includes(account)) break;
          inventories.set(account, stageInventoryAnswer(ctx, account, JSON.stringify(item.inventory), ENDPOINT));
          break;
        }
        case 'organization':
          unremove('organization', item.organization.id);
          organizations.set(item.organization.id, item.organization);
          break;
        case 'warehouse':
          // Read with installation tokens by the warehouses step.
          break;
      }
    }
    for (const raw of page.data.removed) {
      const checked = removal.safeParse(raw);
      if (!checked.success) throw answerBreaksContract(ENDPOINT, checked.error.issues);
      const { type, id } = checked.data;
      if (!removed.has(type)) removed.set(type, new Set());
      removed.get(type)!.add(id);
      if (type === 'organization') organizations.delete(id);
    }
    ctx.progress('projects', items, null);
    cursor = page.data.cursor;
    if (!page.data.more) break;
  }
  for (const resource of staged) flush(resource);

  // Swap in, resource by resource, as the seed path does (each commit is one transaction).
  const ids = (type: string) => [...(removed.get(type) ?? [])];
  const outcomes = {} as Record<FeedResource, StepOutcome>;
  const full = { full: snapshot, pageHashes: [] };
  outcomes.projects = { status: 'ok', ...cache.write.commitProjects('public', full) };
  if (ctx.examinerRead) {
    outcomes.internalProjects = { status: 'ok', ...cache.write.commitProjects('internal', full) };
  } else {
    // Internal data the app may no longer see must not linger (engine.ts does the same).
    cache.write.beginStaging('internalProjects');
    cache.write.commitProjects('internal', { full: true, pageHashes: [] });
    outcomes.internalProjects = { status: 'skipped', reason: 'the app lacks examiner:read' };
  }
  const removedRows = cache.write.removeFeedRows({
    projects: ids('project'),
    internalProjects: ids('internalProject'),
    projectDetails: ids('internalProject'),
    credits: ids('projectCredits'),
    retirements: ids('retirement'),
  });
  // Per-project answers are kept for the projects listed (as the seed path's commit does).
  const listed = (scope: 'public' | 'internal') => [...cache.projectHashes(scope).keys()];
  if (ctx.examinerRead) {
    outcomes.projectDetails = { status: 'ok', ...cache.write.commitPerProject('projectDetails', listed('internal')) };
  } else {
    cache.write.beginStaging('projectDetails');
    outcomes.projectDetails = { status: 'skipped', reason: 'the app lacks examiner:read' };
  }
  outcomes.credits = { status: 'ok', ...cache.write.commitPerProject('credits', listed(ctx.examinerRead ? 'internal' : 'public')) };
  const changed = [...inventories.values()].filter((c): c is ChangedInventory => c !== null);
  outcomes.inventories = { status: 'ok', ...cache.write.commitInventories(changed) };
  outcomes.retirements = {
    status: 'ok',
    ...cache.write.commitRetirements({ full: snapshot, pageHashes: [], watermark: null, total: null }),
  };
  const installed = new Set(ctx.installations.map((i) => i.organizationId));
  cache.write.putFeedOrganizations([...organizations.values()], installed, ids('organization'));
  cache.write.setFeedCursor(`${cursorScope(ctx)}:${cursor}`);
  const note = `changes feed${snapshot ? ' (snapshot)' : ''}: ${items} items, ${removedRows} rows removed`;
  for (const resource of FEED_RESOURCES) {
    const outcome = outcomes[resource];
    if (outcome.status === 'ok') outcomes[resource] = { ...outcome, note };
  }
  return outcomes;
}
