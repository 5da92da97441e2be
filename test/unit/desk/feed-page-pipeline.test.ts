// A changes-feed page made ready for writing (electron/core/desk/sync/worker/page-prep.ts) and the
// pipeline that fetches, reads and hands the pages over (page-pipeline.ts): every item of a real
// registry's snapshot becomes the row its writer takes, a breach names its item, and the pipeline
// keeps the pages in order, asks at most two ahead (the next from a small page's first bytes),
// keeps an inventory page's bytes until it is written, and stops on a failure or when its reader stops.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { openRegistry, type OpenedRegistry } from '@registry/open';
import { changesSince, decodeCursor } from '@registry/queries/changes';
import { hashJson, projectColumns } from '@desk/cache/rows';
import { RegistryClientError } from '@desk/client/errors';
import { parseSpan } from '@desk/sync/json-spans';
import { preparedAtOnce, readEnvelope, type PreparedItem } from '@desk/sync/worker/page-prep';
import { pipelinedPages, type FetchPage } from '@desk/sync/worker/page-pipeline';
import type { PageReader } from '@desk/sync/worker/page-reader';
import { buildFixture } from '@test/support/fixture';
import { makeDataDir } from '@test/support/registry';
import { addVolume } from '@test/support/desk-support';

const dir = makeDataDir('feed-page-pipeline-');
let registry: OpenedRegistry;
/** The snapshot's pages as an examiner's app receives them, by the cursor that asks for each ('' first). */
const pages = new Map<string, string>();

beforeAll(() => {
  registry = openRegistry({ dataDir: dir.dir });
  const f = buildFixture(registry);
  addVolume(registry, f, { projects: 6, retirements: 20 });
  const viewer = { examinerRead: true, organizationId: null, warehouseRead: false };
  for (
    let asked = '', page = changesSince(registry, viewer, null, 8);
    ;
    page = changesSince(registry, viewer, decodeCursor(registry, asked), 8)
  ) {
    pages.set(asked, JSON.stringify(page));
    if (!page.more) break;
    asked = page.cursor;
  }
});
afterAll(() => {
  registry.close();
  dir.remove();
});

const prepared = (text: string) => {
  const bytes = Buffer.from(text);
  return { bytes, ...preparedAtOnce(bytes, readEnvelope(bytes), true) };
};

describe("a feed page's items made ready for writing", () => {
  it('gives each item the JSON, hash, columns and filing its writer takes, in order', () => {
    const seen = new Set<string>();
    for (const text of pages.values()) {
      const { bytes, items } = prepared(text);
      const raw = (JSON.parse(text) as { changes: Record<string, unknown>[] }).changes;
      expect(items).toHaveLength(raw.length);
      const internalHashes = new Map<string, string>();
      for (const [i, item] of items.entries()) {
        seen.add(item.type);
        const sent = raw[i]!;
        expect(item.type).toBe(sent.type);
        if (item.type === 'project') {
          expect(item.json).toBe(JSON.stringify(sent.project));
          expect(item.hash).toBe(hashJson(item.json));
          expect(item.parts.columns).toEqual(projectColumns(sent.project as never));
        } else if (item.type === 'internalProject') {
          const { events: _events, ...row } = sent.project as Record<string, unknown>;
          expect(item.json).toBe(JSON.stringify(row));
          expect(item.detailsJson).toBe(JSON.stringify(sent.project));
          expect(item.parts.proponents).toEqual((row.proponents as { id: string }[]).map((p) => p.id));
          internalHashes.set(item.id, item.hash);
        } else if (item.type === 'projectCredits') {
          // filed under the internal list row of the same page (an examiner's app)
          expect(item.listHash).toBe(internalHashes.get(item.id));
          expect(item.json).toBe(JSON.stringify(sent.credits));
        } else if (item.type === 'retirement') {
          expect(item.json).toBe(JSON.stringify(sent.retirement));
          expect(item.columns.project_id).toBe((sent.retirement as { project: { id: string } }).project.id);
        } else if (item.type === 'inventory') {
          expect(item.index).toBe(i);
          expect(parseSpan(bytes, item.span)).toEqual(sent);
        }
      }
    }
    expect([...seen]).toEqual(expect.arrayContaining(['internalProject', 'inventory', 'project', 'projectCredits', 'retirement']));
  });

  it('refuses a page whose item breaks the contract, naming the item, and one that is not JSON', () => {
    const text = [...pages.values()].find((t) => t.includes('"type":"retirement"'))!;
    const page = JSON.parse(text) as { changes: { type: string; retirement?: { amount: unknown } }[] };
    const at = page.changes.findIndex((item) => item.type === 'retirement');
    page.changes[at]!.retirement!.amount = { tonnes: 1 };
    const breach = (() => {
      try {
        prepared(JSON.stringify(page));
      } catch (error) {
        return error;
      }
    })();
    expect(breach).toBeInstanceOf(RegistryClientError);
    expect((breach as RegistryClientError).message).toContain(`changes.${at}.retirement`);
    expect(() => prepared(text.slice(0, -3))).toThrow(/the answer is not JSON/);
    expect(() => prepared(JSON.stringify({ ...page, cursor: 7 }))).toThrow(/cursor/);
  });
});

describe('the pipeline of feed pages', () => {
  /** A fetch that serves `pages`, counting the pages asked for; `fail` fails the page after that cursor. */
  function server(fail?: string) {
    const state = { asked: 0 };
    const fetch: FetchPage = async (cursor, into) => {
      state.asked++;
      await nextTurn();
      if (cursor === fail) throw new Error('the registry went away');
      const text = Buffer.from(pages.get(cursor)!);
      // (one size for every page, as a reused buffer is: a later page lands on an earlier one's bytes)
      const buffer = into(1 << 20);
      text.copy(buffer);
      return buffer.subarray(0, text.length);
    };
    return { fetch, state };
  }

  /**
   * A reader as the thread is, on this thread: it reads the shared bytes a few turns later (a
   * buffer reused too early would give it another page), links first, then the items.
   */
  const threadLike: PageReader = {
    read(buffer, length) {
      const later = async (turns: number) => {
        for (let i = 0; i < turns; i++) await nextTurn();
        const bytes = Buffer.from(buffer, 0, length);
        return { envelope: readEnvelope(bytes), bytes };
      };
      const links = later(1).then(({ envelope }) => ({ cursor: envelope.cursor, more: envelope.more }));
      const prepared = later(3).then(({ envelope, bytes }) => {
        const { items, removed } = preparedAtOnce(bytes, envelope, true);
        return { items, removed: () => removed };
      });
      return { links, prepared };
    },
    rest: () => {},
    close: () => Promise.resolve(),
  };

  it.each([
    ['on this thread', null],
    ['by a reader elsewhere', threadLike],
  ])('hands the pages over in order, at most two asked ahead, an inventory page intact until written (%s)', async (_, reader) => {
    const { fetch, state } = server();
    const expected = [...pages.values()].flatMap((text) => prepared(text).items.map(({ type }) => type));
    const types: PreparedItem['type'][] = [];
    let taken = 0;
    for await (const page of pipelinedPages(fetch, reader, true, '')) {
      taken++;
      // The writer takes its time: the pipeline fetches meanwhile, never more than two pages ahead.
      for (let i = 0; i < 10; i++) await nextTurn();
      expect(state.asked - taken).toBeLessThanOrEqual(2);
      for (const item of page.items) {
        types.push(item.type);
        if (item.type === 'inventory') expect((parseSpan(page.bytes!, item.span) as { type: string }).type).toBe('inventory');
      }
    }
    expect(types).toEqual(expected);
    expect(state.asked).toBe(pages.size);
  });

  it("fails with the fetch's failure after the pages before it, and asks nothing once the writer stops", async () => {
    const cursors = [...pages.keys()];
    const { fetch } = server(cursors[2]);
    const got: number[] = [];
    await expect(async () => {
      for await (const page of pipelinedPages(fetch, null, true, '')) got.push([...page.items].length);
    }).rejects.toThrow('the registry went away');
    // (the pages before it that were ready may be handed over first, or not: the run fails either way)
    expect(got.length).toBeLessThanOrEqual(2);

    const second = server();
    for await (const _page of pipelinedPages(second.fetch, null, true, '')) break;
    const asked = second.state.asked;
    for (let i = 0; i < 10; i++) await nextTurn();
    expect(second.state.asked).toBe(asked);
    expect(asked).toBeLessThanOrEqual(3);
  });

  /**
   * A registry whose pages arrive in two pieces: the first bytes (the page's start, `declared` long
   * as its Content-Length says), then the rest once the test lets that page finish.
   */
  function arrivingInPieces(declared: (size: number) => number, text: (cursor: string) => string | undefined = (c) => pages.get(c)) {
    const asked: string[] = [];
    const finish = new Map<string, () => void>();
    const fetch: FetchPage = async (cursor, into, watch) => {
      asked.push(cursor);
      watch?.sent?.();
      const page = text(cursor);
      // (a cursor no page has: never answered, so only the failure under test is seen)
      if (page === undefined) return new Promise<Buffer>(() => {});
      const bytes = Buffer.from(page);
      const buffer = into(declared(bytes.length));
      bytes.copy(buffer);
      watch?.arrived?.(buffer.subarray(0, 120));
      await new Promise<void>((resolve) => finish.set(cursor, resolve));
      watch?.arrived?.(buffer.subarray(0, bytes.length));
      return buffer.subarray(0, bytes.length);
    };
    const finishAll = () => [...finish.values()].forEach((done) => done());
    return { fetch, asked, finishAll };
  }

  const turns = async (n: number) => {
    for (let i = 0; i < n; i++) await nextTurn();
  };

  it("asks for the next page from a small page's first bytes; a page declared large only once it is read", async () => {
    for (const [declared, early] of [
      [(size: number) => size, true],
      [() => 8 << 20, false],
    ] as const) {
      const { fetch, asked, finishAll } = arrivingInPieces(declared);
      const pipeline = pipelinedPages(fetch, threadLike, true, '');
      const first = pipeline.next();
      await turns(10);
      // The first page has not arrived: its first bytes named the second's cursor, or not.
      expect(asked).toEqual(early ? ['', (JSON.parse(pages.get('')!) as { cursor: string }).cursor] : ['']);
      const types: string[] = [];
      const finishing = setInterval(finishAll, 1);
      try {
        for (let page = await first; !page.done; page = await pipeline.next()) types.push(...[...page.value.items].map((i) => i.type));
      } finally {
        clearInterval(finishing);
      }
      expect(types).toEqual([...pages.values()].flatMap((t) => prepared(t).items.map(({ type }) => type)));
      expect(asked).toEqual([...pages.keys()]);
    }
  });

  it('fails when a page names its cursor twice and its first bytes said another', async () => {
    const first = pages.get('')!;
    // The first `cursor` and `more` are read early; JSON.parse (and the envelope) take the last ones.
    const twice = `{"cursor":"elsewhere","more":true,${first.slice(1)}`;
    const { fetch, asked, finishAll } = arrivingInPieces(
      (size) => size,
      (cursor) => (cursor === '' ? twice : pages.get(cursor)),
    );
    const finishing = setInterval(finishAll, 1);
    try {
      await expect(async () => {
        for await (const _page of pipelinedPages(fetch, threadLike, true, '')) void _page;
      }).rejects.toThrow(/cursor, more: named twice in the page/);
    } finally {
      clearInterval(finishing);
    }
    expect(asked).toContain('elsewhere');
  });

  it('lets the next request leave before it hands over a page read on its thread', async () => {
    // Every page made larger than the reader's share by a member no one reads.
    const large = (cursor: string) => {
      const text = pages.get(cursor);
      return text === undefined ? undefined : `${text.slice(0, -1)},"padding":"${'x'.repeat(5 << 20)}"}`;
    };
    const events: string[] = [];
    const fetch: FetchPage = async (cursor, into, watch) => {
      // The request leaves a few turns after it is asked for, as through the client and fetch.
      void turns(3).then(() => {
        events.push(`sent ${cursor}`);
        watch?.sent?.();
      });
      const bytes = Buffer.from(large(cursor)!);
      const buffer = into(bytes.length);
      bytes.copy(buffer);
      await turns(5);
      return buffer.subarray(0, bytes.length);
    };
    const cursors = [...pages.keys()];
    let taken = 0;
    for await (const page of pipelinedPages(fetch, threadLike, true, '')) {
      if (page.more) expect(events).toContain(`sent ${cursors[taken + 1]}`);
      events.push(`written ${cursors[taken++]}`);
      void [...page.items];
    }
    expect(taken).toBe(pages.size);
  });
});
