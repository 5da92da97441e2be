// The changes feed's pages (GET /sync/v1/changes): each read into a reused buffer, its envelope
// checked, its items left as spans of its bytes; the next page asked for while this one is used.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { z } from 'zod';
import type { EndpointId } from '@shared/registry/endpoints';
import { RegistryClientError } from '@desk/client/errors';
import { answerBreaksContract, answerNotJson } from '@desk/client/registry-client';
import type { StepContext } from './context';
import { isObjectSpan, JsonShapeError, objectMembersAndElements, parseSpan, rootSpan, type Span } from './json-spans';

export const FEED_ENDPOINT: EndpointId = 'getChanges';
const envelope = z.object({ changes: z.array(z.unknown()), removed: z.array(z.unknown()), cursor: z.string(), more: z.boolean() });

/**
 * How long one page may take, its download included: a page holds up to `limit` resources, and an
 * account's inventory is one resource (tens of MB at --scale 100), so the client's usual timeout
 * would cut a large page off on a loaded machine.
 */
export const FEED_PAGE_TIMEOUT_MS = 120_000;

/** The registry does not offer the feed (the public registry the seed interface describes does not). */
export class FeedNotOffered extends Error {}

/**
 * One page of the feed, its envelope checked; its items are spans of its bytes, each decoded,
 * parsed and checked as it is used, so a page is never held as one parsed graph nor as one decoded
 * string (an account's inventory is one item of tens of MB at --scale 100: its credits are parsed
 * one at a time; json-spans.ts says why bytes).
 */
export interface FeedPage {
  bytes: Buffer;
  items: Span[];
  removed: unknown[];
  cursor: string;
  more: boolean;
}

/** Runs a step of reading a page's text; malformed JSON becomes the client's "not JSON" failure. */
export function readingJson<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof JsonShapeError || error instanceof SyntaxError) throw answerNotJson(FEED_ENDPOINT);
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
    text = (await ctx.client.callBytes(FEED_ENDPOINT, { query, timeoutMs: FEED_PAGE_TIMEOUT_MS }, into(slot))).bytes;
  } catch (error) {
    if (error instanceof RegistryClientError && error.kind === 'http' && (error.status === 404 || error.status === 405)) {
      throw new FeedNotOffered(`the registry does not offer ${FEED_ENDPOINT}`);
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
  if (!page.success) throw answerBreaksContract(FEED_ENDPOINT, page.error.issues);
  return { bytes: text, items: changes!, removed: page.data.removed, cursor: page.data.cursor, more: page.data.more };
}

/** Work to do while the next page has not arrived: one piece at a time (null: nothing now). */
export type IdleWork = () => (() => void) | null;

/**
 * The feed's pages from `start` to its end. Page n+1 is asked for as soon as page n has arrived, so
 * the registry prepares (and the network carries) the next page while this side writes the current
 * one; if this side is done first, it does `idle` work, a piece per turn of the event loop (the
 * page's answer is read on those turns), until the page has arrived or no work is left.
 */
export async function* feedPages(ctx: StepContext, start: string, limit: number, idle?: IdleWork): AsyncGenerator<FeedPage> {
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
