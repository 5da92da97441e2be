// A first sync's page reader on a thread of its own (electron/core/desk/sync/worker/page-reader.ts):
// the pages it prepares are those the sync's thread would, and its thread rests while the pipeline
// reads large pages itself (ended, so its heap is freed), then starts again for the next page, and
// never while a page is still being read.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readdirSync } from 'node:fs';
import { openRegistry, type OpenedRegistry } from '@registry/open';
import { changesSince, decodeCursor } from '@registry/queries/changes';
import { preparedAtOnce, readEnvelope } from '@desk/sync/worker/page-prep';
import { helperScript, readerOnItsOwnThread, type PageReader } from '@desk/sync/worker/page-reader';
import { buildFixture } from '@test/support/fixture';
import { makeDataDir } from '@test/support/registry';
import { addVolume } from '@test/support/desk-support';

const dir = makeDataDir('feed-page-reader-');
let registry: OpenedRegistry;
/** The snapshot's pages as an examiner's app receives them, in order. */
const pages: string[] = [];
const readers: PageReader[] = [];

beforeAll(() => {
  registry = openRegistry({ dataDir: dir.dir });
  addVolume(registry, buildFixture(registry), { projects: 4, retirements: 12 });
  const viewer = { examinerRead: true, organizationId: null, warehouseRead: false };
  for (
    let page = changesSince(registry, viewer, null, 8);
    ;
    page = changesSince(registry, viewer, decodeCursor(registry, page.cursor), 8)
  ) {
    pages.push(JSON.stringify(page));
    if (!page.more) break;
  }
});
afterAll(async () => {
  for (const reader of readers.splice(0)) await reader.close();
  registry.close();
  dir.remove();
});

/** A page's bytes in a buffer the reader's thread shares. */
function shared(text: string): { buffer: SharedArrayBuffer; length: number } {
  const bytes = Buffer.from(text);
  const buffer = new SharedArrayBuffer(bytes.length);
  bytes.copy(Buffer.from(buffer));
  return { buffer, length: bytes.length };
}

/** This process's threads (the reader's is one of them while it runs). */
const threads = () => readdirSync('/proc/self/task').length;

/** What the sync's thread makes of the page itself. */
function preparedHere(text: string) {
  const bytes = Buffer.from(text);
  return preparedAtOnce(bytes, readEnvelope(bytes), true).items;
}

describe("a first sync's page reader", () => {
  it('prepares pages as the sync thread does, rests between them, and starts again for the next', async () => {
    expect(pages.length).toBeGreaterThan(2);
    const before = threads();
    const reader = readerOnItsOwnThread(helperScript(undefined), {}, true);
    readers.push(reader);
    const read = async (text: string) => {
      const { buffer, length } = shared(text);
      const { links, prepared } = reader.read(buffer, length);
      const envelope = readEnvelope(Buffer.from(text));
      expect(await links).toEqual({ cursor: envelope.cursor, more: envelope.more });
      return (await prepared).items;
    };
    expect(await read(pages[0]!)).toEqual(preparedHere(pages[0]!));
    const reading = threads();
    expect(reading).toBeGreaterThan(before);

    // A page still being read keeps the thread: resting then ends nothing.
    const { buffer, length } = shared(pages[1]!);
    const inFlight = reader.read(buffer, length);
    reader.rest();
    expect((await inFlight.prepared).items).toEqual(preparedHere(pages[1]!));
    expect(threads()).toBe(reading);

    // Rested with nothing to read: its thread ends, and the next page starts another.
    reader.rest();
    await vi.waitFor(() => expect(threads()).toBe(before), { timeout: 10_000 });
    expect(await read(pages[2]!)).toEqual(preparedHere(pages[2]!));
    expect(threads()).toBe(reading);
    reader.rest();
    reader.rest();
    expect(await read(pages[0]!)).toEqual(preparedHere(pages[0]!));
  }, 30_000);
});
