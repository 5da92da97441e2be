// One date format and one time format across the desk (issue 30): the back office's "data as of"
// line is written by the desk's formatter, like every other date, not the browser's default
// ("11/28/2026, 6:58:09 PM" beside "Nov 28, 2026, 6:57 PM").
import { afterEach, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { BackOfficePage } from '@renderer/screens/back-office/BackOfficePage';
import { formatDateTime, formatTimeOfDay } from '@renderer/lib/format';
import { useBackOffice } from '@renderer/stores/backOffice';
import { administratorSession } from './back-office-session';
import { render } from './render';
import { installScriptedBridge } from './scripted-bridge';

installScriptedBridge();
afterEach(() => useBackOffice.setState({ session: null }));

it("writes the offline 'data as of' time in the desk's one date-and-time format", async () => {
  const syncedAt = '2026-11-28T18:58:09.000Z';
  useBackOffice.setState({ session: { ...administratorSession, online: false, syncedAt } });
  render(<BackOfficePage title="Audit log">{null}</BackOfficePage>);
  await expect.element(page.getByText(/offline, data as of/)).toHaveTextContent(`offline, data as of ${formatDateTime(syncedAt)}`);
  // The time of day is the same format alone: "6:58 PM" inside "Nov 28, 2026, 6:58 PM".
  expect(formatDateTime(syncedAt)).toContain(formatTimeOfDay(syncedAt, Date.parse(syncedAt)));
});

it('says who the desk acts as without doubled brackets when the name has its own', async () => {
  const operator = { id: 'op-1', name: 'Local administrator (this desk)', role: 'administrator' as const };
  useBackOffice.setState({ session: { ...administratorSession, operator } });
  render(<BackOfficePage title="Issuance">{null}</BackOfficePage>);
  await expect.element(page.getByText(/^Acting as/)).toHaveTextContent('Acting as Local administrator (this desk) · Administrator');
});
