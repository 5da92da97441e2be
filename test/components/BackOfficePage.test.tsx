// Who the desk acts as, and that it is offline. Walked offline against a remote registry, the line
// said "offline, data as of 10:11 AM" (the newest view the desk had saved) under the offline banner's
// "You are seeing data saved 11 minutes ago (10:05 AM)" for the same screen: two times for one
// screen's data. The banner alone gives the time now.
import { afterEach, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { BackOfficePage } from '@renderer/screens/back-office/BackOfficePage';
import { useBackOffice } from '@renderer/stores/backOffice';
import { administratorSession } from './back-office-session';
import { render } from './render';
import { installScriptedBridge } from './scripted-bridge';

installScriptedBridge();
afterEach(() => useBackOffice.setState({ session: null }));

it('says it is offline without a time of its own (the offline banner says how old the screen is)', async () => {
  const syncedAt = '2026-11-28T18:58:09.000Z';
  useBackOffice.setState({ session: { ...administratorSession, online: false, syncedAt } });
  render(<BackOfficePage title="Audit log">{null}</BackOfficePage>);
  await expect.element(page.getByText(/^Acting as/)).toHaveTextContent(/^Acting as Ada · Administrator · offline$/);
});

it('says who the desk acts as without doubled brackets when the name has its own', async () => {
  const operator = { id: 'op-1', name: 'Local administrator (this desk)', role: 'administrator' as const };
  useBackOffice.setState({ session: { ...administratorSession, operator } });
  render(<BackOfficePage title="Issuance">{null}</BackOfficePage>);
  await expect.element(page.getByText(/^Acting as/)).toHaveTextContent('Acting as Local administrator (this desk) · Administrator');
});
