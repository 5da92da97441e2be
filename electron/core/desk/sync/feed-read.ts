// Reading the changes feed from a cursor to its end: each item, made ready for writing
// (worker/page-prep.ts), handed to the kinds that take its type (their feed parts, resources/
// feed-part.ts: staged, feed-stage.ts; or loaded into an empty cache, feed-snapshot.ts), removals
// collected for the end of the pass. No kind is named here: they come from the list.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { SyncResource } from '@shared/desk/api';
import type { FeedItemType, FeedOutcomes, FeedRemoved, KindFeed } from '@desk/resources/feed-part';
import { FEED_RESOURCES, FEED_KINDS, type FeedCache } from '@desk/resources/list';
import type { StepContext, StepOutcome } from './context';
import { fetchPageBytes } from './feed-pages';
import type { PreparedItem } from './worker/page-prep';
import type { PageReader } from './worker/page-reader';
import { pipelinedPages, type FetchPage } from './worker/page-pipeline';

export { FEED_RESOURCES };
export type FeedResource = SyncResource;
/** Every feed resource's outcome (FEED_RESOURCES), by resource. */
export type FeedRunOutcomes = Partial<Record<FeedResource, StepOutcome>>;

/** What the stored cursor was taken with: a change of the app's view starts again from a snapshot. */
export const cursorScope = (ctx: StepContext) => (ctx.examinerRead ? 'examiner' : 'public');

/** A kind's part of one pass (staged or loaded): where its items go. */
export interface PassPart {
  folder: string;
  feed: Pick<KindFeed<never>, 'items' | 'idOf'>;
  part: {
    take(item: PreparedItem, page: { bytes: Buffer | null; examinerRead: boolean }): boolean;
    dropped?(type: FeedItemType, id: string): void;
  };
}
/** A feed pass's outcomes, and whether it found nothing changed since its cursor (so no row was written). */
export interface FeedRun {
  outcomes: FeedRunOutcomes;
  unchanged: boolean;
  /** The cached projects' proponents (what cache.proponentIds() reads), when the pass loaded every project. */
  proponents?: string[];
}

/** What the pages said besides their items: removals, where the feed ends. */
export interface ReadResult {
  removed: Map<string, Set<string>>;
  cursor: string;
  items: number;
}

/** The sync's thread gives its event loop a turn after this many items (the next pages keep coming). */
const ITEMS_PER_TURN = 64;

const idOf = (feed: PassPart['feed'], item: PreparedItem) => (feed.idOf ? feed.idOf(item) : 'id' in item ? item.id : undefined);

/**
 * Reads every page from `start`, handing each item to the parts that take its type as it was made
 * ready (`reader`: see pageReader); an item no kind takes (a warehouse: read with installation
 * tokens by its step) is passed by. `idleWork` is given the folders of the kinds whose items stopped arriving.
 */
export async function readPages(
  ctx: StepContext,
  start: string,
  limit: number,
  parts: readonly PassPart[],
  idleWork: ((ended: ReadonlySet<string>) => (() => void) | null) | null,
  reader: PageReader | null,
): Promise<ReadResult> {
  const takers = new Map<FeedItemType, PassPart[]>();
  for (const part of parts) for (const type of part.feed.items) takers.set(type, [...(takers.get(type) ?? []), part]);
  // Removals by item type and id; an item arriving later for the same id cancels its removal.
  const removed = new Map<string, Set<string>>();
  let items = 0;
  let cursor = start;
  // The kinds whose items were seen so far, and those the last page brought none of (for the idle work).
  const seen = new Set<string>();
  const ended = new Set<string>();
  const idle = idleWork ? () => idleWork(ended) : undefined;
  const fetch: FetchPage = (after, into, watch) => fetchPageBytes(ctx, after, limit, into, watch);
  ctx.progress(FEED_RESOURCES[0]!, 0, null);
  for await (const page of pipelinedPages(fetch, reader, ctx.examinerRead, start, idle)) {
    const kindsOfPage = new Set<string>();
    const itemPage = { bytes: page.bytes, examinerRead: ctx.examinerRead };
    let n = 0;
    for (const item of page.items) {
      if (++n % ITEMS_PER_TURN === 0) await nextTurn();
      items++;
      for (const { folder, feed, part } of takers.get(item.type) ?? []) {
        const id = idOf(feed, item);
        if (id !== undefined) removed.get(item.type)?.delete(id);
        if (part.take(item, itemPage)) kindsOfPage.add(folder);
      }
    }
    for (const { type, id } of page.removed()) {
      if (!removed.has(type)) removed.set(type, new Set());
      removed.get(type)!.add(id);
      for (const { part } of takers.get(type as FeedItemType) ?? []) part.dropped?.(type as FeedItemType, id);
    }
    for (const kind of kindsOfPage) {
      seen.add(kind);
      ended.delete(kind);
    }
    for (const kind of seen) if (!kindsOfPage.has(kind)) ended.add(kind);
    ctx.progress(FEED_RESOURCES[0]!, items, null);
    cursor = page.cursor;
  }
  // Rows loaded so far are in an open transaction or staged: none is kept before the history is.
  await ctx.beforeKeep?.();
  return { removed, cursor, items };
}

/** The ids the feed said left the app's view, by item type. */
export const removedOf =
  (read: ReadResult): FeedRemoved =>
  (type) => [...(read.removed.get(type) ?? [])];

/** Applies the feed's removals of every kind's rows, in one transaction; the rows removed. */
export function removeFeedRows(cache: Pick<FeedCache, 'db' | 'write'>, removed: FeedRemoved): number {
  return cache.db.transaction(() => FEED_KINDS.reduce((rows, { feed }) => rows + (feed.remove?.(cache.write, removed) ?? 0), 0));
}

/**
 * Every feed resource's outcome: skipped for those only read with examiner:read when the app lacks
 * it, else the kind's (`given`) or `fill`; a resource with none is a kind's mistake, thrown.
 */
export function feedOutcomes(ctx: StepContext, given: FeedOutcomes, fill?: StepOutcome): FeedRunOutcomes {
  const outcomes: FeedRunOutcomes = {};
  const skipped: StepOutcome = { status: 'skipped', reason: 'the app lacks examiner:read' };
  for (const { feed } of FEED_KINDS)
    for (const { resource, examiner } of feed.resources) {
      const outcome = examiner && !ctx.examinerRead ? skipped : (given[resource] ?? fill);
      if (!outcome) throw new Error(`the changes feed's pass gave no outcome for ${resource}`);
      outcomes[resource] = outcome;
    }
  return outcomes;
}

/** The note every resource's outcome carries. */
export const noteOf = (how: 'changes' | 'snapshot' | 'loaded', items: number, removedRows: number) =>
  `changes feed${{ changes: '', snapshot: ' (snapshot)', loaded: ' (snapshot, loaded directly)' }[how]}: ${items} items, ${removedRows} rows removed`;
