// A calendar day is the same day in every time zone (issue 30): a project's start `2026-11-28`
// (kept by the registry as that day's midnight UTC) read "Nov 27, 2026" west of UTC. The page runs
// in Los Angeles here (Chromium's time zone override, set before the formatters are made).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cdp } from 'vitest/browser';
// The playwright provider's types give the CDP session its `send`.
import type {} from '@vitest/browser-playwright';

let format: typeof import('@renderer/lib/format');

beforeAll(async () => {
  await cdp().send('Emulation.setTimezoneOverride', { timezoneId: 'America/Los_Angeles' });
  format = await import('@renderer/lib/format');
});
afterAll(() => cdp().send('Emulation.setTimezoneOverride', { timezoneId: '' }));

it('the page runs west of UTC: a moment at midnight UTC is the evening before', () => {
  expect(new Intl.DateTimeFormat().resolvedOptions().timeZone).toBe('America/Los_Angeles');
  expect(format.formatDate('2026-11-28T00:00:00.000Z')).toBe('Nov 27, 2026');
});

it('a date without a time is that calendar day', () => {
  expect(format.formatDate('2026-11-28')).toBe('Nov 28, 2026');
  expect(format.formatDay('2026-11-28')).toBe('Nov 28, 2026');
});

it('a calendar day the registry keeps as its midnight UTC is that day', () => {
  expect(format.formatDay('2026-11-28T00:00:00.000Z')).toBe('Nov 28, 2026');
  expect(format.formatDay('2026-01-01T00:00:00Z')).toBe('Jan 1, 2026');
});
