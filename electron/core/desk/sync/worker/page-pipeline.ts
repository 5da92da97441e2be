// The feed's pages, fetched, read and written as a pipeline: while the sync's thread writes page n,
// the reader (page-reader.ts) prepares page n+1 and the registry makes page n+2. The next page is
// asked for as soon as its cursor is known: from a small page's first bytes when the page names it
// before its items (our registry's do), else once the page has arrived and its envelope is read.
//
// Pages are downloaded into two shared buffers that the run's pages take in turn, each replaced only
// by a larger one: a buffer of its own for each page (tens of MB) is freed to malloc, which after
// one that large keeps the next ones. A buffer is free again once its page is prepared, or, for a
// page with an inventory (read from the bytes as it is written), once the writer is done with it.
import { setImmediate as nextTurn, setTimeout as delay } from 'node:timers/promises';
import { RegistryClientError } from '@desk/client/errors';
import type { ExchangeWatch } from '@desk/client/call-types';
import { leadingLinks, preparedLazily, readEnvelope, type PreparedPage } from './page-prep';
import type { PageLinks, PageReader } from './page-reader';
import { deferred } from './deferred';

/** A page ready to be written: its items, where the feed goes on, and its bytes while they are held. */
export interface ReadyPage extends PreparedPage, PageLinks {
  /** The page's bytes while its items need them (read here, or inventories); null once its buffer is reused. */
  bytes: Buffer | null;
}

/** Work to do while the next page has not arrived: one piece at a time (null: nothing now). */
export type IdleWork = () => (() => void) | null;

/**
 * Downloads the page after `cursor` into the buffer `into` gives (asked again, larger, as needed),
 * telling `watch` when its request has left and the bytes received so far as they come.
 */
export type FetchPage = (cursor: string, into: (size: number) => Buffer, watch?: ExchangeWatch) => Promise<Buffer>;

/**
 * How long the writer waits, at most, for the next page's request to leave before it writes a page
 * read on its thread (a project or inventory page: a quarter to most of a second of writes, during
 * which a request not yet written to its connection would wait, and the registry with it).
 */
const SENT_WAIT_MS = 50;

/** A page that names where the feed goes on before its items does so in its first bytes, or not at all. */
const LINKS_WITHIN_BYTES = 64 << 10;

/** The page's envelope said otherwise than its first bytes (a member named twice): a breach of the contract. */
const pageContradictsItsStart = () => {
  const message = 'cursor, more: named twice in the page, with different values';
  return new RegistryClientError('invalid_response', `GET /sync/v1/changes: the answer does not match the contract: ${message}`, {
    endpoint: 'getChanges',
    messages: [message],
  });
};

/**
 * Where the feed goes on after a page, from its first bytes when it names it before its items: the
 * next page is then asked for while this one is still arriving and being read, so the link and the
 * registry are not idle between pages (over 150 ms of round trip, a tenth of a first sync:
 * bench/README.md). Not for a page declared large (`sized`): those stay one ahead (see AHEAD).
 */
function linksFromFirstBytes() {
  const early = deferred<PageLinks>();
  let seeking = true;
  return {
    /** Settles only if the first bytes said where the feed goes on. */
    links: early.promise,
    sized(size: number): void {
      if (size > THREAD_PAGE_BYTES) seeking = false;
    },
    arrived(sofar: Buffer): void {
      if (!seeking) return;
      const links = leadingLinks(sofar);
      if (links) early.resolve(links);
      if (links || sofar.length >= LINKS_WITHIN_BYTES) seeking = false;
    },
    /** The whole page's links, which must be those its first bytes said. */
    confirm(links: PageLinks): void {
      seeking = false;
      const told = early.settled;
      if (told && (told.cursor !== links.cursor || told.more !== links.more)) throw pageContradictsItsStart();
    },
  };
}

/**
 * Pages asked for ahead of the one being written: one always, a second while those ahead are small.
 * Small pages (a thousand retirements, about 1 MB) are where the desk is slower than the registry,
 * so a second page keeps the reader and the registry busy; large ones (a project page of --scale
 * 100 is 10 MB, its prepared rows more) come slower than the desk writes them, and a second one
 * would only hold more memory.
 */
const AHEAD = 2;
const AHEAD_BYTES = 4 << 20;

interface Slot {
  buffer: SharedArrayBuffer | null;
  free: boolean;
}

/**
 * Pages larger than this are read on the sync's thread, item by item as they are written: they are
 * the project and inventory pages (10 and 21 MB at --scale 100), which the registry makes slower
 * than the desk writes them, so a reader thread would gain nothing there and hold their prepared
 * rows (more than the page) in two heaps at once.
 */
const THREAD_PAGE_BYTES = 4 << 20;

/** A page read on this thread: its links now, its items made as the writer asks for them. */
function readHere(bytes: Buffer, examinerRead: boolean): { links: PageLinks; page: PreparedPage } {
  const envelope = readEnvelope(bytes);
  return { links: { cursor: envelope.cursor, more: envelope.more }, page: preparedLazily(bytes, envelope, examinerRead) };
}

/**
 * The feed's pages from `start` to its end, in order, small ones prepared by `reader` (a thread of
 * its own; null: every page on this thread). While none is ready, the caller's `idle` work runs, a
 * piece per turn of the event loop; the caller should also give the loop a turn now and then while
 * it writes a page (so the next ones keep coming in).
 */
export async function* pipelinedPages(
  fetch: FetchPage,
  reader: PageReader | null,
  examinerRead: boolean,
  start: string,
  idle?: IdleWork,
): AsyncGenerator<ReadyPage> {
  const slots: Slot[] = [
    { buffer: null, free: true },
    { buffer: null, free: true },
  ];
  const ready: { page: ReadyPage; slot: Slot; size: number }[] = [];
  // (in an object: both sides set and read it between awaits; `unsent`: the last page asked for,
  // until its request has left)
  const run = { failure: null as { error: unknown } | null, stopped: false, unsent: null as Promise<void> | null };
  let taken = 0;
  let asked = 0;
  // Bytes of the pages downloaded and not yet taken by the writer.
  let aheadBytes = 0;
  const mayAsk = () => asked - taken < 1 || (asked - taken < AHEAD && aheadBytes < AHEAD_BYTES);
  // Both sides wait for a change (a page ready, a buffer free, a page taken, a failure).
  const waiters = new Set<() => void>();
  const changed = () => {
    for (const wake of waiters) wake();
    waiters.clear();
  };
  const nextChange = () => new Promise<void>((resolve) => waiters.add(resolve));
  const fail = (error: unknown) => {
    run.failure ??= { error };
    changed();
  };

  // Pages become ready in the order they were asked for, whichever reader prepared them and
  // whichever download ended first.
  let lastReady: Promise<unknown> = Promise.resolve();
  const inOrder = (entry: Promise<(typeof ready)[number]>) => {
    lastReady = Promise.all([entry, lastReady]).then(([page]) => {
      ready.push(page);
      changed();
    }, fail);
  };

  /** Downloads the page after `cursor` into `held` and has it read; its links once the whole page says them. */
  const download = async (cursor: string, held: Slot, watch: ExchangeWatch, sized: (size: number) => void) => {
    const into = (size: number) => {
      sized(size);
      if (!held.buffer || held.buffer.byteLength < size) held.buffer = new SharedArrayBuffer(size);
      return Buffer.from(held.buffer, 0, size);
    };
    const bytes = await fetch(cursor, into, watch);
    aheadBytes += bytes.length;
    if (!reader || bytes.length > THREAD_PAGE_BYTES) {
      // The reader has nothing to read while the pages are this large: its thread and heap are
      // freed meanwhile (the projects' pages, at a first sync's memory peak).
      reader?.rest();
      // Read from its bytes as it is written: its buffer is held until then.
      const here = readHere(bytes, examinerRead);
      const entry = { page: { ...here.page, ...here.links, bytes }, slot: held, size: bytes.length };
      return { links: here.links, entry: Promise.resolve(entry) };
    }
    const read = reader.read(held.buffer!, bytes.length);
    const links = await read.links;
    const entry = read.prepared.then((page) => {
      const withInventory = [...page.items].some((item) => item.type === 'inventory');
      if (!withInventory) held.free = true;
      return { page: { ...page, ...links, bytes: withInventory ? bytes : null }, slot: held, size: bytes.length };
    });
    return { links, entry };
  };

  const produce = async () => {
    let cursor = start;
    for (;;) {
      let slot: Slot | undefined;
      while (!run.stopped && (!mayAsk() || !(slot = slots.find((s) => s.free)))) await nextChange();
      if (run.stopped || !slot) return;
      const held = slot;
      held.free = false;
      asked++;
      const early = linksFromFirstBytes();
      const unsent = deferred<void>();
      run.unsent = unsent.promise;
      const sent = () => {
        unsent.resolve();
        if (run.unsent === unsent.promise) run.unsent = null;
      };
      const page = download(cursor, held, { arrived: early.arrived, sent }, early.sized).then(({ links, entry }) => {
        early.confirm(links);
        return { links, entry };
      });
      inOrder(page.then(({ entry }) => entry));
      const whole = page.then(({ links }) => links);
      // (a failure after the early links reaches the writer in order, through inOrder)
      whole.catch(() => {});
      const links = await Promise.race([early.links, whole]);
      if (!links.more) return;
      cursor = links.cursor;
    }
  };
  produce().catch(fail);

  try {
    for (;;) {
      for (
        let work = ready.length ? null : idle?.();
        work && !ready.length && !run.failure;
        work = ready.length || run.failure ? null : idle!()
      ) {
        work();
        await nextTurn();
      }
      while (!ready.length && !run.failure) await nextChange();
      if (run.failure) throw run.failure.error;
      const { page, slot, size } = ready.shift()!;
      taken++;
      aheadBytes -= size;
      changed();
      if (page.bytes && page.bytes.length > THREAD_PAGE_BYTES) {
        // A long write ahead: the page it frees room for is asked for first (a turn lets the
        // producer ask), and its request is let leave, for a moment at most.
        await nextTurn();
        if (run.unsent) await Promise.race([run.unsent, delay(SENT_WAIT_MS, undefined, { ref: false })]);
      }
      yield page;
      if (page.bytes) {
        // Its items are written: its buffer may take another page.
        slot.free = true;
        changed();
      }
      if (!page.more) return;
    }
  } finally {
    run.stopped = true;
    changed();
  }
}
