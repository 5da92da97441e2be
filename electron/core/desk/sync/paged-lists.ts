// List resources read page by page (the project lists: resources/projects/sync.ts; retirements:
// resources/retirements/sync.ts). A page whose text
// hashes as last time is not parsed (its ids are known); a changed page is validated and only its
// new or changed rows carry JSON into staging. Everything is swapped in at the end in one transaction.
//
// A full pass asks for the next pages while it processes the current one (pagesAhead requests
// ahead): the registry prepares pages n+1… while we hash, validate and stage page n, so a pass costs
// about the registry's time for its pages rather than that plus ours, and the registry always has
// the next one queued when it is done with one. Staged rows are written in batches of
// a few pages, not one transaction per page: each commit costs a WAL write, and a thousand small
// ones cost more than the rows themselves.
import type { EndpointId } from '@shared/registry/endpoints';
import type { RawAnswer } from '../client/registry-client';
import { hashJson } from '../cache/rows';
import type { StagedRow } from '../cache/types';
import type { PageHash } from '../cache/writers';
import type { Retirement } from '@shared/registry/resources';
import type { StepContext } from './context';
import { parseSeedPage } from './seed-answers';
import { askedAheadMs } from './prefetch';

export type ListResource = 'projects' | 'internalProjects' | 'retirements';
/** Rows written straight into an empty table as pages arrive (beginRetirementsLoad, beginProjectsLoad in resources/<kind>/writers.ts). */
type RowLoad = { put(item: never, json: string, hash: string): void };

/**
 * Staged rows are written once this many are pending (five pages). Larger batches save little more
 * time but cost memory: rows held across a few pages outlive V8's young-generation collections,
 * get promoted, and then pile up as old-generation garbage (larger batches raised the first sync's
 * peak RSS at scale 100: bench/README.md).
 */
export const STAGE_BATCH_ROWS = 500;

/** Progress is reported about this many times per pass (see resources/project-answers/sync.ts). */
const PROGRESS_STEPS = 100;

/**
 * Requests a full pass keeps ahead of the page it processes: enough to cover a round trip with
 * pages being processed (answer time ÷ processing time per page, plus one), at least 3, at most 32.
 * Pages are held only between their arrival and their turn: a pass waiting on the network holds few,
 * and one whose pages come faster than it processes them asks fewer ahead (the quotient falls).
 * 32 rather than 16: at 150 ms a retirements list of ~100 pages is 4 round trips rather than 7.
 */
const PAGES_AHEAD_MIN = 3;
export const PAGES_AHEAD_MAX = 32;

/**
 * A list's first pages asked ahead of its step, at most (askPagesAhead): more than the step keeps
 * ahead of itself, because they are asked while earlier steps run and are waited for by nothing.
 * A full retirements pass at scale 10 is 100 pages of about 75 KiB: at 32, its last pages were a
 * first sync's last 3 round trips through the seed interface (29 in all: 1.67x the loopback figure
 * at 150 ms, over the 1.6x target); at 128 they are in by the tenth of 26. What waits for the step
 * is at most 128 pages, about 10 MB of answers; the seed path's first-sync peak at scale 100 rose
 * by about 40 MB with them (one run each: bench/README.md).
 */
export const LIST_PAGES_ASKED_AHEAD = 128;

function pagesAhead(answerMs: number | null, processMs: number | null): number {
  if (answerMs === null || processMs === null) return PAGES_AHEAD_MIN;
  return Math.max(PAGES_AHEAD_MIN, Math.min(PAGES_AHEAD_MAX, Math.ceil(answerMs / Math.max(processMs, 0.5)) + 1));
}

/** A list page's call: the same for a step and for its first page asked ahead (or asked by the pass, pass.ts). */
export const pageCall = (ctx: Pick<StepContext, 'tuning'>, page: number) => ({ query: { page, limit: ctx.tuning.pageSize } });

/** The total a list page states, or null (a page that is not what it should be is the step's to refuse). */
function statedTotal(text: string): number | null {
  try {
    const total: unknown = (JSON.parse(text) as { pagination?: { total?: unknown } } | null)?.pagination?.total;
    return typeof total === 'number' ? total : null;
  } catch {
    return null;
  }
}

/**
 * Asks a list's first pages ahead of its step (a SeedPrefetch, resources/kind.ts): page 0, and once
 * it tells the total, the pages after it up to `pages` in all (at most LIST_PAGES_ASKED_AHEAD, so
 * what waits for the step is bounded).
 */
export function askPagesAhead(ctx: StepContext, endpoint: EndpointId, pages = 1): void {
  const first = ctx.client.callRaw(endpoint, pageCall(ctx, 0));
  if (pages <= 1) return;
  first.then(
    (answer) => {
      const total = statedTotal(answer.text);
      if (total === null) return;
      for (let page = 1; page < Math.min(pages, LIST_PAGES_ASKED_AHEAD) && page * ctx.tuning.pageSize < total; page++)
        void ctx.client.callRaw(endpoint, pageCall(ctx, page));
    },
    () => undefined,
  );
}

interface PageResult {
  ids: string[];
  /** Whether every row was already in the cache unchanged. */
  allKnown: boolean;
  total: number | null;
  newest: string | null;
}

/** Collects staged rows and writes them in batches (one transaction per batch). */
function stagingBuffer(ctx: StepContext, resource: ListResource) {
  let pending: StagedRow[] = [];
  return {
    add(rows: readonly StagedRow[]) {
      for (const row of rows) pending.push(row);
      if (pending.length >= STAGE_BATCH_ROWS) this.flush();
    },
    flush() {
      if (pending.length > 0) ctx.cache.write.stage(resource, pending);
      pending = [];
    },
  };
}

/** Where a pass's rows go: staged (and swapped in by the commit), or straight into an empty table. */
type RowSink = { staging: ReturnType<typeof stagingBuffer> } | { load: RowLoad };

function processPage(
  ctx: StepContext,
  resource: ListResource,
  endpoint: EndpointId,
  page: number,
  text: string,
  pageHashes: PageHash[],
  sink: RowSink,
): PageResult {
  const hash = hashJson(text);
  // Into an empty table every page is read (there are no rows its ids could name).
  const previous = 'staging' in sink ? ctx.cache.pageHash(resource, page) : undefined;
  if (previous && previous.hash === hash && 'staging' in sink) {
    const { staging } = sink;
    staging.add(previous.ids.map((id) => ({ id, hash: '', json: null })));
    pageHashes.push({ page, hash, ids: previous.ids });
    return { ids: previous.ids, allKnown: true, total: null, newest: null };
  }
  const parsed = parseSeedPage(ctx.client, endpoint, text, resource === 'retirements' ? 'retirements' : 'projects') as {
    pagination: { total: number };
    projects?: { id: string }[];
    retirements?: Retirement[];
  };
  const items = (resource === 'retirements' ? parsed.retirements : parsed.projects) ?? [];
  const ids = items.map((i) => i.id);
  pageHashes.push({ page, hash, ids });
  const first = parsed.retirements?.[0];
  const result = { ids, total: parsed.pagination.total, newest: first ? `${first.createdAt}|${first.id}` : null };
  if ('load' in sink) {
    const put = sink.load.put as (item: unknown, json: string, hash: string) => void;
    for (const item of items) {
      const json = JSON.stringify(item);
      put(item, json, hashJson(json));
    }
    return { ...result, allKnown: false };
  }
  const known = ctx.cache.listRowHashes(
    resource,
    items.map((i) => i.id),
  );
  const rows: StagedRow[] = [];
  let allKnown = true;
  for (const item of items) {
    const json = JSON.stringify(item);
    const rowHash = hashJson(json);
    const unchanged = known.get(item.id) === rowHash;
    if (!unchanged) allKnown = false;
    rows.push({ id: item.id, hash: rowHash, json: unchanged ? null : json });
  }
  sink.staging.add(rows);
  return { ...result, allKnown };
}

/** Reads every page of a list until a short page, staging as it goes. */
export async function readAllPages(
  ctx: StepContext,
  resource: ListResource,
  endpoint: EndpointId,
  options: { stopWhenKnown: boolean; load?: RowLoad },
) {
  const pageHashes: PageHash[] = [];
  const previousTotal = ctx.cache.syncState(resource)?.total ?? null;
  const staging = stagingBuffer(ctx, resource);
  const sink: RowSink = options.load ? { load: options.load } : { staging };
  // Each page's answer time (asked to answered) and processing time, for how far ahead to ask.
  let answerMs: number | null = null;
  let processMs: number | null = null;
  const average = (was: number | null, ms: number) => (was === null ? ms : was * 0.7 + ms * 0.3);
  const fetchPage = async (page: number): Promise<RawAnswer> => {
    const asked = performance.now();
    const answer = await ctx.client.callRaw(endpoint, pageCall(ctx, page));
    // A page asked ahead (prefetch.ts) came in its own time, not in the wait here.
    answerMs = average(answerMs, askedAheadMs(answer) ?? performance.now() - asked);
    return answer;
  };
  let total: number | null = null;
  let newest: string | null = null;
  let stoppedEarly = false;
  // Pages asked for and not yet processed, by page number.
  const asked = new Map<number, Promise<RawAnswer>>();
  const ask = (page: number) => {
    if (asked.has(page)) return;
    const answer = fetchPage(page);
    // Failing while an earlier page is awaited is not an unhandled rejection: it is thrown when its turn comes.
    answer.catch(() => undefined);
    asked.set(page, answer);
  };
  try {
    for (let page = 0; ; page++) {
      ask(page);
      const answer: RawAnswer = await asked.get(page)!;
      asked.delete(page);
      // An incremental pass usually stops after its first page: asking ahead would be wasted.
      // A full pass reads on, pagesAhead pages ahead, but not past the expected total (one page
      // ahead while no total is known).
      const askAhead = () => {
        if (options.stopWhenKnown) return;
        const expected = total ?? previousTotal;
        const ahead = expected === null ? 1 : pagesAhead(answerMs, processMs);
        for (let next = page + 1; next <= page + ahead; next++) if (expected === null || next * ctx.tuning.pageSize < expected) ask(next);
      };
      askAhead();
      const processing = performance.now();
      const result = processPage(ctx, resource, endpoint, page, answer.text, pageHashes, sink);
      processMs = average(processMs, performance.now() - processing);
      // The first page of a first pass tells the total: the pages after it are asked for now, not
      // a round trip later when the second page is in.
      if (total === null && result.total !== null) {
        total = result.total;
        askAhead();
      }
      if (page === 0) newest = result.newest;
      const shown = total ?? previousTotal;
      const pages = shown === null ? null : Math.max(page + 1, Math.ceil(shown / ctx.tuning.pageSize));
      // About every hundredth of the pages (as resources/project-answers/sync.ts reports): each report crosses to the main thread.
      if (pages === null || (page + 1) % Math.max(1, Math.floor(pages / PROGRESS_STEPS)) === 0 || page + 1 === pages)
        ctx.progress(resource, page + 1, pages);
      if (result.ids.length < ctx.tuning.pageSize) break;
      // A full page whose own total says nothing is after it: the next page would come back empty,
      // a round trip for nothing (a list of exactly n pages). A list that grew during the pass says so
      // in its later pages' totals, and is read on.
      if (result.total !== null && (page + 1) * ctx.tuning.pageSize >= result.total) break;
      if (options.stopWhenKnown && result.allKnown) {
        stoppedEarly = true;
        break;
      }
    }
    staging.flush();
  } finally {
    // Requests asked ahead and not needed (or left by a failure) must settle before we return,
    // so nothing of this pass is still in flight when the caller commits or reports.
    await Promise.all([...asked.values()].map((p) => p.catch(() => undefined)));
  }
  return { pageHashes, total, newest, stoppedEarly };
}
