// A list's first pages asked ahead of its step (desk/sync/paged-lists.ts askPagesAhead): page 0,
// then, once it tells the total, every page after it up to the limit asked ahead, past the 32 a
// step keeps ahead of itself (a full retirements pass at scale 10 is 100 pages), and never a page
// beyond the list's end.
import { describe, expect, it } from 'vitest';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { askPagesAhead, LIST_PAGES_ASKED_AHEAD, PAGES_AHEAD_MAX } from '@desk/sync/paged-lists';
import type { StepContext } from '@desk/sync/context';

/** A step's context whose client answers every list page with `total` and records the pages asked. */
function listOf(total: number) {
  const asked: number[] = [];
  const ctx = {
    tuning: { pageSize: 10 },
    client: {
      callRaw: (_id: string, input: { query: { page: number } }) => {
        asked.push(input.query.page);
        return Promise.resolve({ text: JSON.stringify({ data: [], pagination: { total } }), status: 200, headers: new Headers() });
      },
    },
  } as unknown as StepContext;
  return { ctx, asked };
}

describe("a list's first pages asked ahead of its step", () => {
  it('asks every page of a list longer than a step keeps ahead, up to the limit, and none past its end', async () => {
    expect(LIST_PAGES_ASKED_AHEAD).toBeGreaterThan(PAGES_AHEAD_MAX);
    const hundred = listOf(1_000);
    askPagesAhead(hundred.ctx, 'listRetirementsV1', LIST_PAGES_ASKED_AHEAD);
    await nextTurn();
    expect(hundred.asked).toEqual(Array.from({ length: 100 }, (_, page) => page));

    const longer = listOf(10 * (LIST_PAGES_ASKED_AHEAD + 50));
    askPagesAhead(longer.ctx, 'listRetirementsV1', LIST_PAGES_ASKED_AHEAD);
    await nextTurn();
    expect(longer.asked).toHaveLength(LIST_PAGES_ASKED_AHEAD);

    const one = listOf(1_000);
    askPagesAhead(one.ctx, 'listRetirementsV1');
    await nextTurn();
    expect(one.asked).toEqual([0]);
  });
});
