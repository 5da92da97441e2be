// POST /__test__/clock/advance {"ms": number} → {"now": ISO}: lets end-to-end tests move the
// registry's clock (reservation expiry, token lifetimes) without sleeping. Mounted only by
// `npm run serve -- --test-clock`; a registry started without the flag has no such route.
import type { Hono } from 'hono';
import { z } from 'zod';
import { iso, type AdjustableClock } from '@platform/clock';
import { errorBody } from '../http/app';
import { DEFAULT_MAX_BODY_BYTES, readBodyText } from '../http/body';
import { zodMessages } from '@platform/zod-messages';

export const TEST_CLOCK_PATH = '/__test__/clock/advance';

/** As the web host's own clock route: at most 366 days per call, so the clock stays a real date. */
export const MAX_ADVANCE_MS = 366 * 24 * 3600 * 1000;

/** The latest time the clock may reach: the last moment of year 9999, so every ISO date keeps four digits. */
export const MAX_CLOCK_MS = Date.parse('9999-12-31T23:59:59.999Z');

const advanceBody = z.object({
  ms: z
    .number({ error: 'must be a number of milliseconds' })
    .finite('must be a finite number of milliseconds')
    .nonnegative('the clock only moves forward')
    .max(MAX_ADVANCE_MS, `at most ${MAX_ADVANCE_MS} ms (366 days) per call`),
});

export function mountTestClock(app: Hono, clock: AdjustableClock): void {
  app.post(TEST_CLOCK_PATH, async (c) => {
    const text = await readBodyText(c, DEFAULT_MAX_BODY_BYTES);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return c.json(errorBody(400, 'body: not valid JSON'), 400);
    }
    const parsed = advanceBody.safeParse(body);
    if (!parsed.success) {
      const messages = zodMessages(parsed.error.issues, 'body');
      return c.json(errorBody(400, messages.length === 1 ? messages[0]! : messages), 400);
    }
    if (clock.now() + parsed.data.ms > MAX_CLOCK_MS) {
      return c.json(errorBody(400, `body.ms: the clock may not pass ${iso(MAX_CLOCK_MS)} (it is ${iso(clock.now())})`), 400);
    }
    clock.advance(parsed.data.ms);
    return c.json({ now: iso(clock.now()) });
  });
}
