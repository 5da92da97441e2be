// Reading the changes feed from a cursor to its end: each item, made ready for writing
// (worker/page-prep.ts), handed to a sink (the staged path: feed-stage.ts; a snapshot into an empty
// cache: feed-snapshot.ts), removals and organizations collected for the end of the pass.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { INVENTORY_ACCOUNTS, type InventoryAccount } from '@shared/desk/api';
import type { Organization } from '@shared/registry/resources';
import type { LoadedKind } from '@desk/cache/snapshot-writers';
import { inventoryItem, type FeedInventory } from '@desk/resources/inventories/feed-item';
import type { StepContext, StepOutcome } from './context';
import { fetchPageBytes } from './feed-pages';
import type { PreparedItem } from './worker/page-prep';
import type { PageReader } from './worker/page-reader';
import { pipelinedPages } from './worker/page-pipeline';

/** The resources one feed pass brings up to date. */
export const FEED_RESOURCES = ['projects', 'internalProjects', 'projectDetails', 'credits', 'inventories', 'retirements'] as const;
export type FeedResource = (typeof FEED_RESOURCES)[number];

type PreparedProject = Extract<PreparedItem, { type: 'project' | 'internalProject' }>;
type PreparedRetirement = Extract<PreparedItem, { type: 'retirement' }>;

/** What the stored cursor was taken with: a change of the app's view starts again from a snapshot. */
export const cursorScope = (ctx: StepContext) => (ctx.examinerRead ? 'examiner' : 'public');

/** Where the feed's items go: staged and swapped in (a cache with data), or loaded directly (an empty one). */
export interface ItemSink {
  project(row: PreparedProject): void;
  internalProject(row: PreparedProject, detailsJson: string): void;
  credits(id: string, json: string, listHash: string): void;
  retirement(row: PreparedRetirement): void;
  inventory(account: InventoryAccount, inventory: FeedInventory): void;
  /** Work that can be done while waiting for a page, given the kinds of item that stopped arriving. */
  idleWork?(ended: ReadonlySet<LoadedKind>): (() => void) | null;
}
/** A feed pass's outcomes, and whether it found nothing changed since its cursor (so no row was written). */
export interface FeedRun {
  outcomes: Record<FeedResource, StepOutcome>;
  unchanged: boolean;
}

/** What the pages said besides their items: removals, organizations, where the feed ends. */
export interface ReadResult {
  removed: Map<string, Set<string>>;
  organizations: Map<string, Organization>;
  cursor: string;
  items: number;
}

/** The sync's thread gives its event loop a turn after this many items (the next pages keep coming). */
const ITEMS_PER_TURN = 64;

/** Reads every page from `start`, handing each item to `sink` as it was made ready (`reader`: see pageReader). */
export async function readPages(
  ctx: StepContext,
  start: string,
  limit: number,
  sink: ItemSink,
  reader: PageReader | null,
): Promise<ReadResult> {
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
  const fetch = (after: string, into: (size: number) => Buffer) => fetchPageBytes(ctx, after, limit, into);
  ctx.progress('projects', 0, null);
  for await (const page of pipelinedPages(fetch, reader, ctx.examinerRead, start, idle)) {
    const kindsOfPage = new Set<LoadedKind>();
    let n = 0;
    for (const item of page.items) {
      if (++n % ITEMS_PER_TURN === 0) await nextTurn();
      items++;
      switch (item.type) {
        case 'project':
          kindsOfPage.add('project');
          unremove('project', item.id);
          sink.project(item);
          break;
        case 'internalProject':
          kindsOfPage.add('project');
          unremove('internalProject', item.id);
          sink.internalProject(item, item.detailsJson);
          break;
        case 'projectCredits':
          // Filed under the list row it came with (page-prep.ts), as the seed path does.
          kindsOfPage.add('project');
          unremove('projectCredits', item.id);
          sink.credits(item.id, item.json, item.listHash);
          break;
        case 'retirement':
          kindsOfPage.add('retirement');
          unremove('retirement', item.id);
          sink.retirement(item);
          break;
        case 'inventory': {
          // Read from the page's bytes credit by credit as it is written (tens of MB at --scale 100).
          const inventory = inventoryItem(page.bytes!, item.span, item.index);
          if (!inventory) break;
          kindsOfPage.add('inventory');
          if (INVENTORY_ACCOUNTS.includes(inventory.account)) sink.inventory(inventory.account, inventory.inventory);
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
    for (const { type, id } of page.removed()) {
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
  // Rows loaded so far are in an open transaction or staged: none is kept before the history is.
  await ctx.beforeKeep?.();
  return { removed, organizations, cursor, items };
}

export const removedIds = (read: ReadResult) => {
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
export const noteOf = (how: 'changes' | 'snapshot' | 'loaded', items: number, removedRows: number) =>
  `changes feed${{ changes: '', snapshot: ' (snapshot)', loaded: ' (snapshot, loaded directly)' }[how]}: ${items} items, ${removedRows} rows removed`;
