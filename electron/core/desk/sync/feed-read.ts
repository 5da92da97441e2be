// Reading the changes feed from a cursor to its end: each item checked and handed to a sink (the
// staged path: feed-stage.ts; a snapshot into an empty cache: feed-snapshot.ts), removals and
// organizations collected for the end of the pass.
import { z } from 'zod';
import { INVENTORY_ACCOUNTS, type InventoryAccount } from '@shared/desk/api';
import { tolerant, type Organization, type Project, type Retirement } from '@shared/registry/resources';
import { answerBreaksContract } from '@desk/client/registry-client';
import { hashJson } from '@desk/cache/rows';
import type { LoadedKind } from '@desk/cache/snapshot-writers';
import { inventoryItem, type FeedInventory } from '@desk/resources/inventories/feed-item';
import type { StepContext, StepOutcome } from './context';
import { checkFeedItem } from './feed-item';
import { feedPages, FEED_ENDPOINT, readingJson } from './feed-pages';
import { parseSpan } from './json-spans';

/** The resources one feed pass brings up to date. */
export const FEED_RESOURCES = ['projects', 'internalProjects', 'projectDetails', 'credits', 'inventories', 'retirements'] as const;
export type FeedResource = (typeof FEED_RESOURCES)[number];

const removal = tolerant.object({ type: z.string(), id: z.string() });

/** What the stored cursor was taken with: a change of the app's view starts again from a snapshot. */
export const cursorScope = (ctx: StepContext) => (ctx.examinerRead ? 'examiner' : 'public');

/** Where the feed's items go: staged and swapped in (a cache with data), or loaded directly (an empty one). */
export interface ItemSink {
  project(project: Project, json: string, hash: string): void;
  internalProject(row: Project, json: string, hash: string, detailsJson: string): void;
  credits(id: string, json: string, listHash: string): void;
  retirement(retirement: Retirement, json: string, hash: string): void;
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

/** Items shorter than this are parsed whole before their type is known (see readPages). */
const SMALL_ITEM_CHARS = 1 << 20;
const isInventoryItem = (raw: unknown) =>
  typeof raw === 'object' && raw !== null && !Array.isArray(raw) && (raw as { type?: unknown }).type === 'inventory';

/** Reads every page from `start`, checking each item and handing it to `sink`. */
export async function readPages(ctx: StepContext, start: string, limit: number, sink: ItemSink): Promise<ReadResult> {
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
      if (!checked.success) throw answerBreaksContract(FEED_ENDPOINT, checked.error.issues);
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
