// What the desk makes of one changes-feed page before anything is written: the envelope checked,
// every item parsed, checked against the tolerant schemas (feed-item.ts) and turned into what its
// writer takes (the row's JSON as validated, its hash, the cache columns and search text). None of
// it needs the cache, so a first sync does it on a thread of its own (page-reader.ts) while the
// sync's thread writes the page before; a re-sync does it on the sync's thread (the pages are few).
//
// An account inventory (one item of tens of MB at --scale 100) is not made here: it is named by
// its place in the page's bytes, and read credit by credit as it is written (feed.ts), so its
// credits are never held all at once.
import { z } from 'zod';
import { tolerant, type Organization } from '@shared/registry/resources';
import { answerBreaksContract, answerNotJson } from '@desk/client/registry-client';
import { hashJson, projectRowParts, retirementColumns, type ProjectRowParts, type RetirementColumns } from '@desk/cache/rows';
import { checkFeedItem } from '../feed-item';
import {
  isObjectSpan,
  JsonShapeError,
  leadingMembers,
  objectMembers,
  objectMembersAndElements,
  parseSpan,
  rootSpan,
  type Span,
} from '../json-spans';

const ENDPOINT = 'getChanges';
const envelope = z.object({ changes: z.array(z.unknown()), removed: z.array(z.unknown()), cursor: z.string(), more: z.boolean() });
const removal = tolerant.object({ type: z.string(), id: z.string() });

/** Runs a step of reading a page's text; malformed JSON becomes the client's "not JSON" failure. */
export function readingJson<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof JsonShapeError || error instanceof SyntaxError) throw answerNotJson(ENDPOINT);
    throw error;
  }
}

const LINK_NAMES: ReadonlySet<string> = new Set(['cursor', 'more']);
/** The envelope's links, checked as the whole envelope checks them. */
const links = envelope.pick({ cursor: true, more: true });

/**
 * Where the feed goes on after the page whose first bytes are `prefix`, when the page names it
 * before its items (our registry does: queries/changes.ts); null until both have arrived, or when
 * they come later in the page. Only a hint for asking the next page early: the whole page's
 * envelope is checked once it has arrived, and must agree (page-pipeline.ts).
 */
export function leadingLinks(prefix: Buffer): { cursor: string; more: boolean } | null {
  const members = leadingMembers(prefix, LINK_NAMES);
  const cursor = members?.get('cursor');
  const more = members?.get('more');
  if (!cursor || !more) return null;
  try {
    const checked = links.safeParse({ cursor: parseSpan(prefix, cursor), more: parseSpan(prefix, more) });
    return checked.success ? checked.data : null;
  } catch {
    // Not JSON after all: the whole page's reading says so.
    return null;
  }
}

/** A page's envelope, checked; its items are spans of its bytes, read by `prepareItems`. */
export interface PageEnvelope {
  items: Span[];
  removed: unknown[];
  cursor: string;
  more: boolean;
}

/** Reads and checks a page's envelope: its members and the places of its items, in one scan. */
export function readEnvelope(text: Buffer): PageEnvelope {
  const { members, changes } = readingJson(() => {
    const root = rootSpan(text);
    if (!isObjectSpan(text, root)) {
      parseSpan(text, root); // not an object: JSON or not, it is checked as a whole
      return { members: new Map<string, Span>(), changes: null };
    }
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
  return { items: changes!, removed: page.data.removed, cursor: page.data.cursor, more: page.data.more };
}

/** One item of a page, ready for its writer (plain data: it crosses threads). */
export type PreparedItem =
  | { type: 'project'; id: string; json: string; hash: string; parts: ProjectRowParts }
  /** An internal project: its list row (without events) and its details answer (with them). */
  | { type: 'internalProject'; id: string; json: string; hash: string; parts: ProjectRowParts; detailsJson: string }
  /**
   * A project's credits answer, filed under the hash of the list row it came with on this page ('' if
   * none), with the vintages it lists (read here, from the answer already parsed).
   */
  | { type: 'projectCredits'; id: string; json: string; listHash: string; vintages: string[] }
  | { type: 'retirement'; id: string; json: string; hash: string; columns: RetirementColumns }
  | { type: 'organization'; organization: Organization }
  /** An inventory, to read from the page's bytes (`span`) as it is written; `index` is its place in `changes`. */
  | { type: 'inventory'; index: number; span: Span }
  /** Read with installation tokens by the warehouses step. */
  | { type: 'warehouse' };

export interface PreparedPage {
  items: Iterable<PreparedItem>;
  /** The page's removals, checked (after its items: a breach in them is named first). */
  removed: () => Removal[];
}
export interface Removal {
  type: string;
  id: string;
}

/** Items shorter than this are parsed whole before their type is known. */
const SMALL_ITEM_CHARS = 1 << 20;
const isInventoryItem = (raw: unknown) =>
  typeof raw === 'object' && raw !== null && !Array.isArray(raw) && (raw as { type?: unknown }).type === 'inventory';
/** Whether a large item is an inventory, from its `type` member alone (its other members are not parsed). */
function isInventorySpan(text: Buffer, span: Span): boolean {
  if (!isObjectSpan(text, span)) return false;
  const type = readingJson(() => objectMembers(text, span)).get('type');
  return type !== undefined && readingJson(() => parseSpan(text, type)) === 'inventory';
}

/** A page's items made ready one by one as they are asked for, and its removals: see `preparedItems`. */
export function preparedLazily(text: Buffer, page: PageEnvelope, examinerRead: boolean): PreparedPage {
  return { items: preparedItems(text, page, examinerRead), removed: () => checkedRemovals(page) };
}

/** The same made at once, as plain data that can cross threads. */
export function preparedAtOnce(text: Buffer, page: PageEnvelope, examinerRead: boolean): { items: PreparedItem[]; removed: Removal[] } {
  return { items: [...preparedItems(text, page, examinerRead)], removed: checkedRemovals(page) };
}

/**
 * Every item of a page made ready for its writer, in the page's order. `examinerRead` says which
 * list rows credits answers are filed under (the internal ones with it, as the seed path does).
 */
function* preparedItems(text: Buffer, page: PageEnvelope, examinerRead: boolean): Generator<PreparedItem> {
  const hashesOfPage = { public: new Map<string, string>(), internal: new Map<string, string>() };
  for (const [i, span] of page.items.entries()) {
    // An item of a few kB is parsed whole at once; only a large one is walked first, and an
    // inventory is left to its writer.
    const small = span.end - span.start < SMALL_ITEM_CHARS;
    if (!small && isInventorySpan(text, span)) {
      yield { type: 'inventory', index: i, span };
      continue;
    }
    const raw = readingJson(() => parseSpan(text, span));
    if (small && isInventoryItem(raw)) {
      yield { type: 'inventory', index: i, span };
      continue;
    }
    const item = checkFeedItem(raw, i);
    switch (item.type) {
      case 'project': {
        const json = JSON.stringify(item.project);
        const hash = hashJson(json);
        hashesOfPage.public.set(item.project.id, hash);
        yield { type: 'project', id: item.project.id, json, hash, parts: projectRowParts(item.project) };
        break;
      }
      case 'internalProject': {
        // The list row is the internal project without its events (both are presented alike).
        const { events: _events, ...row } = item.project;
        const json = JSON.stringify(row);
        const hash = hashJson(json);
        hashesOfPage.internal.set(row.id, hash);
        yield { type: 'internalProject', id: row.id, json, hash, parts: projectRowParts(row), detailsJson: JSON.stringify(item.project) };
        break;
      }
      case 'projectCredits': {
        const listHash = (examinerRead ? hashesOfPage.internal : hashesOfPage.public).get(item.id) ?? '';
        const vintages = item.credits.vintages.map((v) => v.vintage);
        yield { type: 'projectCredits', id: item.id, json: JSON.stringify(item.credits), listHash, vintages };
        break;
      }
      case 'retirement': {
        const json = JSON.stringify(item.retirement);
        const columns = retirementColumns(item.retirement);
        yield { type: 'retirement', id: item.retirement.id, json, hash: hashJson(json), columns };
        break;
      }
      case 'inventory':
        // An inventory that is not an object: checkFeedItem has refused it already.
        break;
      case 'organization':
        yield { type: 'organization', organization: item.organization };
        break;
      case 'warehouse':
        yield { type: 'warehouse' };
        break;
    }
  }
}

function checkedRemovals(page: PageEnvelope): Removal[] {
  return page.removed.map((raw) => {
    const checked = removal.safeParse(raw);
    if (!checked.success) throw answerBreaksContract(ENDPOINT, checked.error.issues);
    return { type: checked.data.type, id: checked.data.id };
  });
}
