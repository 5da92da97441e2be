// The sync indicator and the announcer in real Chromium, against a desk scripted through its bridge.
// The answer to `sync.run` and the events of the sync it started come on different channels, in
// either order: a sync quick enough to end before its answer arrives must still end on screen
// ("Sync now", "Sync finished." said), never stay "Syncing…" until the next sync. An end whose event
// is lost (sent before the page's event stream connected) is taken from the status the page reads
// while a sync runs, once; a status read before an end that arrives after its event is not applied.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import type { SyncStatus } from '@shared/desk/api';
import { Announcer } from '@renderer/components/Announcer';
import { SyncIndicator } from '@renderer/components/SyncIndicator';
import { useSync } from '@renderer/stores/sync';
import { formatCount, formatDateTime } from '@renderer/lib/format';
import { useFreshness } from '@renderer/stores/freshness';
import '@renderer/styles/app.css';
import { render } from './render';
import { installScriptedBridge } from './scripted-bridge';

const desk = installScriptedBridge();

const EARLIER = new Date(Date.now() - 60_000).toISOString();
/** Each test talks to a desk service of its own life (the page's count of ended runs starts over). */
let service = '';
const status = (running: boolean, ended = 0): SyncStatus => ({
  running,
  progress: null,
  lastSuccess: { projects: EARLIER },
  lastError: null,
  online: true,
  dataAsOf: EARLIER,
  runsEnded: { service, count: ended },
});

let stop: () => void = () => {};
/** Starts following the desk's sync, its status read every 50 ms while a sync runs. */
const follow = () => (stop = useSync.getState().start({ statusPollMs: 50 }));
beforeEach(() => {
  desk.reset();
  service = crypto.randomUUID();
  desk.answer('sync.status', () => status(false));
  useSync.setState({ status: null, progress: null, running: false, lastError: null, runError: null });
});
afterEach(() => stop());

const announcer = () => document.querySelector('[data-announcer]')!;

it('a sync that ends before the answer to "Sync now" arrives ends on screen and is said to have finished', async () => {
  desk.answer('sync.run', () => {
    desk.emit({ type: 'sync.progress', progress: { resource: 'projects', done: 3, total: 10, etaMs: null } });
    desk.emit({ type: 'sync.finished', status: status(false, 1) });
    return { started: true };
  });
  follow();
  render(
    <>
      <SyncIndicator />
      <Announcer />
    </>,
  );
  await page.getByRole('button', { name: 'Sync now' }).click();
  await expect.poll(() => announcer().textContent, { timeout: 5_000 }).toBe('Sync finished.');
  await expect.element(page.getByRole('button', { name: 'Sync now' })).toBeVisible();
  expect(useSync.getState().running).toBe(false);
  expect(document.documentElement.dataset.syncState).toBe('done');
});

it('a sync whose answer arrives first shows "Syncing…" until its end is heard', async () => {
  desk.answer('sync.run', () => {
    // From now on the desk says it is syncing (the page reads that while the sync runs).
    desk.answer('sync.status', () => status(true));
    return { started: true };
  });
  follow();
  render(<SyncIndicator />);
  await page.getByRole('button', { name: 'Sync now' }).click();
  await expect.element(page.getByRole('button', { name: 'Syncing…' })).toBeVisible();
  desk.emit({ type: 'sync.finished', status: status(false, 1) });
  await expect.element(page.getByRole('button', { name: 'Sync now' })).toBeVisible();
  expect(useSync.getState().running).toBe(false);
});

it('an end whose event was lost is heard from the status, once, even if its event comes late', async () => {
  // The page opens while a sync runs; its end is sent before the page's event stream is connected.
  desk.answer('sync.status', () => status(true));
  follow();
  render(
    <>
      <SyncIndicator />
      <Announcer />
    </>,
  );
  await expect.element(page.getByRole('button', { name: 'Syncing…' })).toBeVisible();
  const versionBefore = useSync.getState().dataVersion;
  desk.answer('sync.status', () => status(false, 1));
  await expect.element(page.getByRole('button', { name: 'Sync now' })).toBeVisible();
  await expect.poll(() => announcer().textContent, { timeout: 5_000 }).toBe('Sync finished.');
  expect(useSync.getState().dataVersion).toBe(versionBefore + 1);
  expect(document.documentElement.dataset.syncState).toBe('done');
  // The lost event turns up after all: the end is not applied (nor said) twice.
  desk.emit({ type: 'sync.finished', status: status(false, 1) });
  expect(useSync.getState().dataVersion).toBe(versionBefore + 1);
});

it('a status read before an end, answered after its event, does not bring "Syncing…" back', async () => {
  let answerStatus: (value: SyncStatus) => void = () => {};
  desk.answer('sync.status', () => new Promise<SyncStatus>((resolve) => (answerStatus = resolve)));
  follow();
  render(<SyncIndicator />);
  // Events are heard once the page has attached its listener (when it has found the bridge).
  await expect.poll(() => desk.listening).toBeGreaterThan(0);
  const versionBefore = useSync.getState().dataVersion;
  // The sync's end is heard before the answer to the status read, which was taken while it ran.
  desk.emit({ type: 'sync.progress', progress: { resource: 'projects', done: 3, total: 10, etaMs: null } });
  desk.emit({ type: 'sync.finished', status: status(false, 1) });
  await expect.element(page.getByRole('button', { name: 'Sync now' })).toBeVisible();
  expect(useSync.getState().dataVersion).toBe(versionBefore + 1);
  answerStatus(status(true, 0));
  await expect.poll(() => desk.answered('sync.status')).toBe(1);
  await expect.element(page.getByRole('button', { name: 'Sync now' })).toBeVisible();
  expect(useSync.getState().running).toBe(false);
  expect(document.documentElement.dataset.syncState).toBe('done');
});

it('says how much of the registry history the last sync verified, and plainly when it changed', async () => {
  const upTo = new Date(Date.now() - 5_000).toISOString();
  const history = { state: 'verified' as const, entries: 1234, upTo, checkedAt: upTo, message: null, pending: 0, evidence: 0 };
  desk.answer('sync.status', () => ({ ...status(false), history }));
  follow();
  render(<SyncIndicator />);
  await expect.element(page.getByText(`History verified: ${formatCount(1234)} entries, up to ${formatDateTime(upTo)}`)).toBeVisible();

  const changed = "This registry's history changed since it was last verified: its log shrank from 1234 to 1200 entries.";
  useSync.setState({ status: { ...status(false), history: { ...history, state: 'failed', message: changed, evidence: 1 } } });
  await expect.element(page.getByText(`${changed} The desk keeps the data it verified.`)).toBeVisible();
});

it('offline, the dot is not the all-well colour and the line says "Offline" in words', async () => {
  follow();
  render(<SyncIndicator />);
  await expect.element(page.getByRole('button', { name: 'Sync now' })).toBeVisible();
  const dot = () => document.querySelector('.sync-dot')!;
  const okColour = getComputedStyle(dot()).backgroundColor;
  // A read came back from the cache (the banner's offline): the desk's last status still said online.
  useFreshness.getState().setOnline(false);
  await expect.element(page.getByRole('region', { name: 'Sync status' })).toHaveTextContent(/Offline/);
  expect(dot().getAttribute('data-state')).toBe('offline');
  expect(getComputedStyle(dot()).backgroundColor).not.toBe(okColour);
  useFreshness.getState().setOnline(true);
  await expect.element(page.getByRole('region', { name: 'Sync status' })).not.toHaveTextContent(/Offline/);
});

it('says a failed sync in words, the request that failed kept under "Details"', async () => {
  const failed = 'GET /transparency/v1/checkpoint: the registry cannot be reached (ECONNREFUSED)';
  desk.answer('sync.status', () => ({ ...status(false), lastError: failed }));
  follow();
  render(<SyncIndicator />);
  const region = page.getByRole('region', { name: 'Sync status' });
  await expect.element(region.getByText('Last sync failed: The registry cannot be reached')).toBeVisible();
  await expect.element(region.getByText(failed)).not.toBeVisible();
  await region.getByText('Details').click();
  await expect.element(region.getByText(failed)).toBeVisible();
});
