// The end-to-end tests' clock route of `npm run serve -- --test-clock` (issue 11, item 7): bounded
// like the web host's clock route (at most 366 days per call), non-finite values refused with 400,
// and a refused call leaves the clock where it was. Runs the route in memory (no socket).
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { strict } from '@shared/registry/resources';
import { AdjustableClock, ManualClock } from '@platform/clock';
import { MAX_ADVANCE_MS, MAX_CLOCK_MS, mountTestClock, TEST_CLOCK_PATH } from '@registry/cli/test-clock-route';

const START = Date.parse('2024-01-01T00:00:00Z');

function route() {
  const clock = new AdjustableClock(new ManualClock(START));
  const app = new Hono();
  mountTestClock(app, clock);
  const advance = (body: string) => app.request(TEST_CLOCK_PATH, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
  return { clock, advance };
}

describe('the --test-clock route', () => {
  it('moves the clock by up to 366 days per call', async () => {
    const { clock, advance } = route();
    const res = await advance(JSON.stringify({ ms: MAX_ADVANCE_MS }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ now: new Date(START + MAX_ADVANCE_MS).toISOString() });
    expect(clock.now()).toBe(START + MAX_ADVANCE_MS);
  });

  it.each([
    ['1e308 ms', '{"ms": 1e308}'],
    ['one ms over 366 days', JSON.stringify({ ms: MAX_ADVANCE_MS + 1 })],
    ['an infinite number (1e400)', '{"ms": 1e400}'],
    ['a negative number', '{"ms": -1}'],
    ['a string', '{"ms": "5"}'],
    ['no JSON', 'ms=5'],
  ])('refuses %s with 400 in the error shape and leaves the clock alone', async (_, body) => {
    const { clock, advance } = route();
    const res = await advance(body);
    expect(res.status).toBe(400);
    expect(strict.errorBody.parse(await res.json()).statusCode).toBe(400);
    expect(clock.now()).toBe(START);
  });

  it('bounds the total: repeated calls stop at the end of year 9999, not past the end of JavaScript dates', async () => {
    const { clock, advance } = route();
    let last = 200;
    for (let i = 0; i < 8000 && last === 200; i++) last = (await advance(JSON.stringify({ ms: MAX_ADVANCE_MS }))).status;
    expect(last).toBe(400);
    expect(clock.now()).toBeLessThanOrEqual(MAX_CLOCK_MS);
    expect(new Date(clock.now()).toISOString()).toMatch(/^9999-/);
  });
});
