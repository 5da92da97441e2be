// Sync from the registry's changes feed (GET /sync/v1/changes, beyond the seed interface): one
// stream of what changed since the stored cursor replaces the project lists, every per-project
// request, the inventories and the retirement pages. Pages are read one ahead (the registry
// prepares page n+1 while the desk writes page n). Items are checked one by one against the
// tolerant schemas (a compiled check first, zod when it is not sure: shape-check.ts) and written as
// the seed path's rows (the same JSON, the same hashes, so both paths fill the cache identically):
// into an empty cache directly, in one transaction (cache/snapshot-writers.ts); otherwise staged
// and swapped in at the end in the same transactions as the seed path's, removals applied after.
// The cursor is stored only once everything is committed, so a run that fails leaves the previous
// data and cursor, and the next run asks again from there.
//
// Warehouses and organization records are not taken from it: they need installation tokens (the
// feed is read with the app's), and the seed steps that follow are already incremental.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { z } from 'zod';
import { INVENTORY_ACCOUNTS, type InventoryAccount } from '@shared/desk/api';
import type { EndpointId } from '@shared/registry/endpoints';
import {
  tolerant,
  type InventoryCredit,
  type InventorySummary,
  type Organization,
  type OrganizationSummary,
  type Project,
  type Retirement,
} from '@shared/registry/resources';
import { FEED_INVENTORY_ACCOUNTS } from '@shared/registry/vocabulary';
import { RegistryClientError } from '../client/errors';
import { answerBreaksContract, answerNotJson } from '../client/registry-client';
import { hashJson, hashJsonBytes } from '../cache/rows';
import type { ChangedInventory } from '@desk/resources/inventories/writers';
import type { StagedRow } from '../cache/types';
import { beginSnapshotLoad, cacheIsEmpty, type LoadedKind, type SnapshotLoad } from '../cache/snapshot-writers';
import type { StepContext, StepOutcome } from './context';
import { STAGE_BATCH_ROWS } from './paged-lists';
import { stageInventoryAnswer } from '@desk/resources/inventories/sync';
import { compileShapeCheck } from './shape-check';
import { checkFeedItem } from './feed-item';
import {
  arrayElements,
  isArraySpan,
  isObjectSpan,
  JsonShapeError,
  objectMembers,
  objectMembersAndElements,
  parseSpan,
  rootSpan,
  type Span,
} from './json-spans';

/** The resources one feed pass brings up to date. */
export const FEED_RESOURCES = ['projects', 'internalProjects', 'projectDetails', 'credits', 'inventories', 'retirements'] as const;
export type FeedResource = (typeof FEED_RESOURCES)[number];

const ENDPOINT: EndpointId = 'getChanges';
const envelope = z.object({ changes: z.array(z.unknown()), removed: z.array(z.unknown()), cursor: z.string(), more: z.boolean() });
const removal = tolerant.object({ type: z.string(), id: z.string() });

/**
 * How long one page may take, its download included: a page holds up to `limit` resources, and an
 * account's inventory is one resource (tens of MB at --scale 100), so the client's usual timeout
 * would cut a large page off on a loaded machine.
 */
export const FEED_PAGE_TIMEOUT_MS = 120_000;

/** The registry does not offer the feed (the public registry the seed interface describes does not). */
export class FeedNotOffered extends Error {}

/** What the stored cursor was taken with: a change of the app's view starts again from a snapshot. */
const cursorScope = (ctx: StepContext) => (ctx.examinerRead ? 'examiner' : 'public');

type Staged = 'projects' | 'internalProjects' | 'projectDetails' | 'credits' | 'retirements';

/**
 * Reads the feed from the stored cursor to its end and commits it. Throws FeedNotOffered when the
 * registry answers the feed's path with 404 or 405 (nothing is written then).
 */
export async function syncFromFeed(ctx: StepContext, limit: number): Promise<FeedRun> {
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

/**
 * One page of the feed, its envelope checked; its items are spans of its bytes, each decoded,
 * parsed and checked as it is used, so a page is never held as one parsed graph nor as one decoded
 * string (an account's inventory is one item of tens of MB at --scale 100: its credits are parsed
 * one at a time; json-spans.ts says why bytes).
 */
interface FeedPage {
  bytes: Buffer;
  items: Span[];
  removed: unknown[];
  cursor: string;
  more: boolean;
}

/** Runs a step of reading a page's text; malformed JSON becomes the client's "not JSON" failure. */
function readingJson<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof JsonShapeError || error instanceof SyntaxError) throw answerNotJson(ENDPOINT);
    throw error;
  }
}

/**
 * Where a page's bytes are read: one of two buffers that the run's pages take in turn (the page
 * being used and the one being downloaded), each replaced only by a larger one. A buffer of its own
 * for each page (tens of MB) is freed to malloc, which after one that large keeps the next ones (at
 * --scale 100 the sync's process stayed larger after the run than with the pages' text).
 */
interface PageBuffer {
  buffer: Buffer | null;
}
const into = (slot: PageBuffer) => (size: number) => {
  if (!slot.buffer || slot.buffer.length < size) slot.buffer = Buffer.allocUnsafeSlow(size);
  return slot.buffer;
};

async function fetchPage(ctx: StepContext, cursor: string, limit: number, slot: PageBuffer): Promise<FeedPage> {
  let text: Buffer;
  try {
    const query = { cursor, limit };
    text = (await ctx.client.callBytes(ENDPOINT, { query, timeoutMs: FEED_PAGE_TIMEOUT_MS }, into(slot))).bytes;
  } catch (error) {
    if (error instanceof RegistryClientError && error.kind === 'http' && (error.status === 404 || error.status === 405)) {
      throw new FeedNotOffered(`the registry does not offer ${ENDPOINT}`);
    }
    throw error;
  }
  const { members, changes } = readingJson(() => {
    const root = rootSpan(text);
    if (!isObjectSpan(text, root)) {
      parseSpan(text, root); // not an object: JSON or not, it is checked as a whole
      return { members: new Map<string, Span>(), changes: null };
    }
    // The envelope's members and the changes' elements in one scan of the page.
    const { members, elements } = objectMembersAndElements(text, root, 'changes');
    return { members, changes: elements };
  });
  const member = (name: string) => readingJson(() => (members.has(name) ? parseSpan(text, members.get(name)!) : undefined));
  const page = envelope.safeParse({
    changes: changes ? [] : member('changes'),
    removed: member('removed'),
    cursor: member('cursor'),
    more: member('more'),
  });
  if (!page.success) throw answerBreaksContract(ENDPOINT, page.error.issues);
  return { bytes: text, items: changes!, removed: page.data.removed, cursor: page.data.cursor, more: page.data.more };
}

/** Work to do while the next page has not arrived: one piece at a time (null: nothing now). */
type IdleWork = () => (() => void) | null;

/**
 * The feed's pages from `start` to its end. Page n+1 is asked for as soon as page n has arrived, so
 * the registry prepares (and the network carries) the next page while this side writes the current
 * one; if this side is done first, it does `idle` work, a piece per turn of the event loop (the
 * page's answer is read on those turns), until the page has arrived or no work is left.
 */
async function* feedPages(ctx: StepContext, start: string, limit: number, idle?: IdleWork): AsyncGenerator<FeedPage> {
  let arrived = false;
  // Page n+1 is read into the buffer page n-1 was: that page has been used by then (this asks for
  // page n+1 only once the caller has asked for page n, so is done with page n-1).
  const slots: [PageBuffer, PageBuffer] = [{ buffer: null }, { buffer: null }];
  let asked = 0;
  const ask = (cursor: string) => {
    arrived = false;
    const page = fetchPage(ctx, cursor, limit, slots[asked++ % 2]!);
    // Awaited later; until then a failure must not count as unhandled.
    page.then(
      () => (arrived = true),
      () => (arrived = true),
    );
    return page;
  };
  let next = ask(start);
  for (;;) {
    for (let work = idle?.(); work && !arrived; work = arrived ? null : idle!()) {
      work();
      await nextTurn();
    }
    const page = await next;
    if (page.more) next = ask(page.cursor);
    yield page;
    if (!page.more) return;
  }
}

/** Where the feed's items go: staged and swapped in (a cache with data), or loaded directly (an empty one). */
interface ItemSink {
  project(project: Project, json: string, hash: string): void;
  internalProject(row: Project, json: string, hash: string, detailsJson: string): void;
  credits(id: string, json: string, listHash: string): void;
  retirement(retirement: Retirement, json: string, hash: string): void;
  inventory(account: InventoryAccount, inventory: FeedInventory): void;
  /** Work that can be done while waiting for a page, given the kinds of item that stopped arriving. */
  idleWork?(ended: ReadonlySet<LoadedKind>): (() => void) | null;
}
/** An account's inventory item: its head checked, its credits parsed and checked one by one as they are read. */
interface FeedInventory {
  /** The answer's bytes as sent (the hash of their text tells an unchanged answer). */
  bytes: Buffer;
  summary: InventorySummary;
  organization: OrganizationSummary;
  credits: () => Iterable<InventoryCredit>;
}

/** A feed pass's outcomes, and whether it found nothing changed since its cursor (so no row was written). */
export interface FeedRun {
  outcomes: Record<FeedResource, StepOutcome>;
  unchanged: boolean;
}

async function readAndCommit(ctx: StepContext, start: string, limit: number): Promise<FeedRun> {
  const snapshot = start === '';
  if (snapshot && cacheIsEmpty(ctx.cache.db)) {
    const load = beginSnapshotLoad(ctx.cache.db, () => ctx.clock.now());
    try {
      return { outcomes: await readIntoSnapshot(ctx, start, limit, load), unchanged: false };
    } catch (error) {
      load.rollback();
      throw error;
    }
  }
  return readAndStage(ctx, start, limit);
}

/** What the pages said besides their items: removals, organizations, where the feed ends. */
interface ReadResult {
  removed: Map<string, Set<string>>;
  organizations: Map<string, Organization>;
  cursor: string;
  items: number;
}

const inventoryHead = z.object({
  account: z.enum(FEED_INVENTORY_ACCOUNTS),
  summary: tolerant.inventorySummary,
  organization: tolerant.organizationSummary,
});
const exactCredit = compileShapeCheck(tolerant.inventoryCredit);

/**
 * An inventory item read from its span without parsing its credits (null for any other item):
 * the account, summary and organization checked now, each credit parsed and checked as it is read.
 */
function inventoryItem(text: Buffer, span: Span, index: number): { account: InventoryAccount; inventory: FeedInventory } | null {
  if (!isObjectSpan(text, span)) return null;
  const members = readingJson(() => objectMembers(text, span));
  const type = members.get('type');
  if (!type || readingJson(() => parseSpan(text, type)) !== 'inventory') return null;
  const inventorySpan = members.get('inventory');
  const parts = readingJson(() => {
    const inner = inventorySpan && isObjectSpan(text, inventorySpan) ? objectMembers(text, inventorySpan) : null;
    const value = (span: Span | undefined) => (span ? parseSpan(text, span) : undefined);
    const credits = inner?.get('credits');
    return {
      head: {
        account: value(members.get('account')),
        summary: value(inner?.get('summary')),
        organization: value(inner?.get('organization')),
      },
      credits: credits && isArraySpan(text, credits) ? arrayElements(text, credits) : null,
    };
  });
  const head = inventoryHead.safeParse(parts.head);
  const at = (path: readonly PropertyKey[], issues: readonly z.core.$ZodIssue[]) =>
    answerBreaksContract(
      ENDPOINT,
      issues.map((issue) => ({ ...issue, path: ['changes', index, ...path, ...issue.path] })),
    );
  if (!head.success) throw at([], head.error.issues);
  const creditSpans = parts.credits;
  if (!creditSpans || !inventorySpan)
    throw at(['inventory', 'credits'], [{ code: 'custom', path: [], message: 'expected an array', input: undefined }]);
  function* credits(): Iterable<InventoryCredit> {
    for (const [j, credit] of creditSpans!.entries()) {
      const raw = readingJson(() => parseSpan(text, credit));
      if (exactCredit(raw)) yield raw;
      else {
        const checked = tolerant.inventoryCredit.safeParse(raw);
        if (!checked.success) throw at(['inventory', 'credits', j], checked.error.issues);
        yield checked.data;
      }
    }
  }
  return {
    account: head.data.account,
    inventory: {
      bytes: text.subarray(inventorySpan.start, inventorySpan.end),
      summary: head.data.summary,
      organization: head.data.organization,
      credits,
    },
  };
}

/** Items shorter than this are parsed whole before their type is known (see readPages). */
const SMALL_ITEM_CHARS = 1 << 20;
const isInventoryItem = (raw: unknown) =>
  typeof raw === 'object' && raw !== null && !Array.isArray(raw) && (raw as { type?: unknown }).type === 'inventory';

/** Reads every page from `start`, checking each item and handing it to `sink`. */
async function readPages(ctx: StepContext, start: string, limit: number, sink: ItemSink): Promise<ReadResult> {
  // Removals by resource and id; an item arriving later for the same id cancels its removal.
  const removed = new Map<string, Set<string>>();
  const unremove = (type: string, id: string) => removed.get(type)?.delete(id);
  const organizations = new Map<string, Organization>();
  let items = 0;
  let cursor = start;
  // The kinds of item seen so far, and those the last page brought none of (for the sink's idle work).
  const seen = new Set<LoadedKind>();
  const ended = new Set<LoadedKind>();
  const idle = sink.idleWork ? () => sink.idleWork!(ended) : undefined;
  ctx.progress('projects', 0, null);
  for await (const page of feedPages(ctx, start, limit, idle)) {
    const kindsOfPage = new Set<LoadedKind>();
    const hashesOfPage = { public: new Map<string, string>(), internal: new Map<string, string>() };
    const { bytes: text } = page;
    for (const [i, span] of page.items.entries()) {
      // An item of a few kB is parsed whole at once; only an inventory (one item of tens of MB at
      // --scale 100) is read from its span credit by credit, so only a large item, or one that
      // turns out to be an inventory, is walked first (walking every item cost a scan of each page).
      const small = span.end - span.start < SMALL_ITEM_CHARS;
      let raw = small ? readingJson(() => parseSpan(text, span)) : undefined;
      const inventory = small && !isInventoryItem(raw) ? null : inventoryItem(text, span, i);
      if (inventory) {
        items++;
        kindsOfPage.add('inventory');
        if (INVENTORY_ACCOUNTS.includes(inventory.account)) sink.inventory(inventory.account, inventory.inventory);
        continue;
      }
      if (!small) raw = readingJson(() => parseSpan(text, span));
      const item = checkFeedItem(raw, i);
      items++;
      if (item.type === 'retirement') kindsOfPage.add('retirement');
      else if (item.type === 'project' || item.type === 'internalProject' || item.type === 'projectCredits') kindsOfPage.add('project');
      switch (item.type) {
        case 'project': {
          const json = JSON.stringify(item.project);
          const hash = hashJson(json);
          hashesOfPage.public.set(item.project.id, hash);
          unremove('project', item.project.id);
          sink.project(item.project, json, hash);
          break;
        }
        case 'internalProject': {
          // The list row is the internal project without its events (both are presented alike).
          const { events: _events, ...row } = item.project;
          const json = JSON.stringify(row);
          const hash = hashJson(json);
          hashesOfPage.internal.set(row.id, hash);
          unremove('internalProject', row.id);
          sink.internalProject(row, json, hash, JSON.stringify(item.project));
          break;
        }
        case 'projectCredits': {
          // The answer is filed under the list row it goes with, as the seed path does.
          const listHash = (ctx.examinerRead ? hashesOfPage.internal : hashesOfPage.public).get(item.id) ?? '';
          unremove('projectCredits', item.id);
          sink.credits(item.id, JSON.stringify(item.credits), listHash);
          break;
        }
        case 'retirement': {
          const json = JSON.stringify(item.retirement);
          unremove('retirement', item.retirement.id);
          sink.retirement(item.retirement, json, hashJson(json));
          break;
        }
        case 'inventory':
          // Read from its span (inventoryItem); an inventory item reaches here only if it is not an object.
          break;
        case 'organization':
          unremove('organization', item.organization.id);
          organizations.set(item.organization.id, item.organization);
          break;
        case 'warehouse':
          // Read with installation tokens by the warehouses step.
          break;
      }
    }
    for (const raw of page.removed) {
      const checked = removal.safeParse(raw);
      if (!checked.success) throw answerBreaksContract(ENDPOINT, checked.error.issues);
      const { type, id } = checked.data;
      if (!removed.has(type)) removed.set(type, new Set());
      removed.get(type)!.add(id);
      if (type === 'organization') organizations.delete(id);
    }
    for (const kind of kindsOfPage) {
      seen.add(kind);
      ended.delete(kind);
    }
    for (const kind of seen) if (!kindsOfPage.has(kind)) ended.add(kind);
    ctx.progress('projects', items, null);
    cursor = page.cursor;
  }
  return { removed, organizations, cursor, items };
}

const removedIds = (read: ReadResult) => {
  const ids = (type: string) => [...(read.removed.get(type) ?? [])];
  return {
    projects: ids('project'),
    internalProjects: ids('internalProject'),
    projectDetails: ids('internalProject'),
    credits: ids('projectCredits'),
    retirements: ids('retirement'),
    organizations: ids('organization'),
  };
};

/** The note every resource's outcome carries. */
const noteOf = (how: 'changes' | 'snapshot' | 'loaded', items: number, removedRows: number) =>
  `changes feed${{ changes: '', snapshot: ' (snapshot)', loaded: ' (snapshot, loaded directly)' }[how]}: ${items} items, ${removedRows} rows removed`;

/** A snapshot into an empty cache: rows go straight into their tables, in the load's one transaction. */
async function readIntoSnapshot(
  ctx: StepContext,
  start: string,
  limit: number,
  load: SnapshotLoad,
): Promise<Record<FeedResource, StepOutcome>> {
  const read = await readPages(ctx, start, limit, {
    project: (project, json, hash) => load.project('public', project, json, hash),
    internalProject: (row, json, hash, detailsJson) => {
      // Without examiner:read the feed sends none; were one sent, it would not be kept (as staged).
      if (!ctx.examinerRead) return;
      load.project('internal', row, json, hash);
      load.details(row.id, detailsJson, hash);
    },
    credits: (id, json, listHash) => load.credits(id, json, listHash),
    retirement: (retirement, json, hash) => load.retirement(retirement, json, hash),
    inventory: (account, inventory) => {
      // An account's answer can be tens of MB at scale: its credits are parsed, checked and written
      // one by one; its hash is the staged path's (of the answer's text as sent).
      function* credits() {
        for (const credit of inventory.credits()) {
          const json = JSON.stringify(credit);
          yield { id: credit.id, json, hash: hashJson(json) };
        }
      }
      load.inventory({
        account,
        summary: inventory.summary,
        organization: inventory.organization,
        credits: credits(),
        // (the hash of the answer's UTF-8 bytes is the hash of its text: hashJson hashes UTF-8)
        answerHash: () => hashJsonBytes(inventory.bytes),
      });
    },
    idleWork: (ended) => load.idleWork(ended),
  });
  const { cache } = ctx;
  load.markProponents();
  const removed = removedIds(read);
  const removedRows = cache.write.removeFeedRows(removed);
  const counts = load.finish(ctx.examinerRead);
  const installed = new Set(ctx.installations.map((i) => i.organizationId));
  cache.write.putFeedOrganizations([...read.organizations.values()], installed, removed.organizations);
  cache.write.setFeedCursor(`${cursorScope(ctx)}:${read.cursor}`);
  // The load's WAL is checkpointed in the background meanwhile (cache/deferred-checkpoint.ts).
  void load.commit();
  const note = noteOf('loaded', read.items, removedRows);
  const ok = (written: number): StepOutcome => ({ status: 'ok', written, deleted: 0, note });
  const skipped: StepOutcome = { status: 'skipped', reason: 'the app lacks examiner:read' };
  return {
    projects: ok(counts.projects),
    internalProjects: ctx.examinerRead ? ok(counts.internalProjects) : skipped,
    projectDetails: ctx.examinerRead ? ok(counts.projectDetails) : skipped,
    credits: ok(counts.credits),
    inventories: ok(counts.inventories),
    retirements: ok(counts.retirements),
  };
}

/** Changes into a cache that holds data: staged like the seed path's rows and swapped in at the end. */
async function readAndStage(ctx: StepContext, start: string, limit: number): Promise<FeedRun> {
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
    read = await readPages(ctx, start, limit, {
      project: (project, json, hash) => stage('projects', { id: project.id, hash, json }),
      internalProject: (row, json, hash, detailsJson) => {
        stage('internalProjects', { id: row.id, hash, json });
        stage('projectDetails', { id: row.id, hash, json: detailsJson });
      },
      credits: (id, json, listHash) => stage('credits', { id, hash: listHash, json }),
      retirement: (retirement, json, hash) => stage('retirements', { id: retirement.id, hash, json }),
      inventory: (account, inventory) => {
        inventories.set(account, stageInventoryAnswer(ctx, account, inventory.bytes, ENDPOINT));
      },
    });
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
    // Internal data the app may no longer see must not linger (engine.ts does the same).
    cache.write.beginStaging('internalProjects');
    cache.write.commitProjects('internal', { full: true, pageHashes: [] });
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
