// A thread of its own that makes a first sync's small feed pages ready for writing (page-prep.ts).
// A first sync into an empty cache is bound by the sync thread's CPU where the registry makes pages
// faster than the desk writes them (the retirement pages at --scale 100, about 1 MB each), and
// reading, checking, serializing and hashing the items was about a quarter of it; on a second
// thread it runs beside the writes of the page before (bench/README.md, sync), where the machine
// has a core free for it (helper-threads.ts).
//
// The page's bytes cross in a SharedArrayBuffer (no copy); the reader answers with the envelope
// first (its cursor lets the next page be asked for at once), then the prepared items.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Worker, type MessagePort } from 'node:worker_threads';
import { preparedAtOnce, readEnvelope, type PreparedItem, type PreparedPage, type Removal } from './page-prep';
import type { ThreadScript } from '../context';
import type { WireError } from './protocol';
import { fromWireError, toWireError } from './wire-error';
import { deferred, type Deferred } from './deferred';

/** Where a page's envelope says the feed goes on. */
export interface PageLinks {
  cursor: string;
  more: boolean;
}

export interface PageReader {
  /** Reads the page in `buffer`'s first `length` bytes, which must not change until `prepared` settles. */
  read(buffer: SharedArrayBuffer, length: number): { links: Promise<PageLinks>; prepared: Promise<PreparedPage> };
  /**
   * Frees the reader's thread while it has nothing to read (nothing if a page is still being
   * read); the next `read` starts one again.
   */
  rest(): void;
  /** Ends the reader's thread. */
  close(): Promise<void>;
}

type ToReader = { type: 'page'; id: number; buffer: SharedArrayBuffer; length: number };
type FromReader =
  | { type: 'links'; id: number; links: PageLinks }
  | { type: 'prepared'; id: number; page: { items: PreparedItem[]; removed: Removal[] } }
  | { type: 'failed'; id: number; error: WireError };

/** The reader thread's side: answers each page over `port`, its links first. */
export function servePageReader(port: MessagePort, examinerRead: boolean): void {
  port.on('message', (message: ToReader) => {
    const { id } = message;
    const text = Buffer.from(message.buffer, 0, message.length);
    const post = (answer: FromReader) => port.postMessage(answer);
    try {
      const envelope = readEnvelope(text);
      post({ type: 'links', id, links: { cursor: envelope.cursor, more: envelope.more } });
      post({ type: 'prepared', id, page: preparedAtOnce(text, envelope, examinerRead) });
    } catch (error) {
      post({ type: 'failed', id, error: toWireError(error) });
    }
  });
}

/** The sync worker's source (entry.ts) started through tsx: where there is no build (the web desk under tsx, tests). */
export const sourceScript = (): ThreadScript => ({
  bootstrapUrl: new URL('./tsx-bootstrap.mjs', import.meta.url).href,
  entryUrl: new URL('./entry.ts', import.meta.url).href,
});

/** The built helper threads' script, beside the built sync worker (electron.vite.config.ts, build-web-desk.ts). */
const BUILT_HELPER = 'sync-helper.js';

/**
 * Where the sync worker's helper threads (this reader, replay-thread.ts) start from: helper-entry.ts,
 * which loads only their modules; built, sync-helper.js beside `workerFile`, or the worker's own
 * script where a build has no such file (entry.ts serves the helpers' jobs too).
 */
export function helperScript(workerFile: string | undefined): ThreadScript {
  if (workerFile) {
    const helper = join(dirname(workerFile), BUILT_HELPER);
    return { file: existsSync(helper) ? helper : workerFile };
  }
  return { ...sourceScript(), entryUrl: new URL('./helper-entry.ts', import.meta.url).href };
}

/**
 * The reader's heap: a page's items parsed and their rows made (a project page of --scale 100 is
 * about 10 MB of JSON), one page at a time. Under tsx compiling its modules needs the usual.
 */
const READER_LIMITS = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 8 };

/**
 * A reader on a thread of its own, started from `script` with `workerData` saying so. Its thread
 * may rest (`rest`: ended, and started again for the next page): a first sync's large pages are
 * read on the sync's thread (page-pipeline.ts), and for those tens of seconds at --scale 100 the
 * idle reader held its heap at the sync's memory peak (bench/README.md, sync).
 */
export function readerOnItsOwnThread(script: ThreadScript, workerData: object, examinerRead: boolean): PageReader {
  const data = { ...workerData, pageReader: { examinerRead } };
  let nextId = 0;
  const waiting = new Map<number, { links: Deferred<PageLinks>; prepared: Deferred<PreparedPage> }>();
  let gone: Error | null = null;
  const failAll = (error: Error) => {
    gone ??= error;
    for (const { links, prepared } of waiting.values()) {
      links.reject(error);
      prepared.reject(error);
    }
    waiting.clear();
  };
  const answered = (message: FromReader) => {
    const page = waiting.get(message.id);
    if (!page) return;
    if (message.type === 'links') page.links.resolve(message.links);
    else if (message.type === 'prepared') {
      waiting.delete(message.id);
      const { items, removed } = message.page;
      page.prepared.resolve({ items, removed: () => removed });
    } else {
      waiting.delete(message.id);
      const error = fromWireError(message.error);
      page.links.reject(error);
      page.prepared.reject(error);
    }
  };
  // The thread reading now (null: resting); one that was rested or closed is no failure when it exits.
  let worker: Worker | null = null;
  const start = (): Worker => {
    const started =
      'file' in script
        ? new Worker(script.file, { workerData: data, resourceLimits: READER_LIMITS })
        : new Worker(new URL(script.bootstrapUrl), { workerData: { ...data, entryUrl: script.entryUrl } });
    started.on('message', answered);
    started.on('error', (error) => {
      if (worker === started) failAll(new Error(`the feed's page reader stopped: ${error.message}`));
    });
    started.on('exit', () => {
      if (worker === started) failAll(new Error("the feed's page reader stopped"));
    });
    return started;
  };
  worker = start();
  return {
    read(buffer, length) {
      const page = { links: deferred<PageLinks>(), prepared: deferred<PreparedPage>() };
      if (gone) {
        page.links.reject(gone);
        page.prepared.reject(gone);
      } else {
        const id = ++nextId;
        waiting.set(id, page);
        worker ??= start();
        worker.postMessage({ type: 'page', id, buffer, length } satisfies ToReader);
      }
      return { links: page.links.promise, prepared: page.prepared.promise };
    },
    rest() {
      if (!worker || waiting.size > 0) return;
      const resting = worker;
      worker = null;
      void resting.terminate();
    },
    close: async () => {
      gone ??= new Error("the feed's page reader was closed");
      const closing = worker;
      worker = null;
      await closing?.terminate();
    },
  };
}
