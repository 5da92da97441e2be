// The sync indicator and the announcer in real Chromium, against a desk scripted through its bridge.
// The answer to `sync.run` and the events of the sync it started come on different channels, in
// either order: a sync quick enough to end before its answer arrives must still end on screen
// ("Sync now", "Sync finished." said), never stay "Syncing…" until the next sync.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import type { SyncStatus } from '../../shared/desk/api';
import { Announcer } from '../../renderer/src/components/Announcer';
import { SyncIndicator } from '../../renderer/src/components/SyncIndicator';
import { useSync } from '../../renderer/src/stores/sync';
import { render } from './render';
import { installScriptedBridge } from './scripted-bridge';

const desk = installScriptedBridge();

const EARLIER = new Date(Date.now() - 60_000).toISOString();
const status = (running: boolean): SyncStatus => ({
  running,
  progress: null,
  lastSuccess: { projects: EARLIER },
  lastError: null,
  online: true,
  dataAsOf: EARLIER,
});

let stop: () => void;
beforeEach(() => {
  desk.reset();
  desk.answer('sync.status', () => status(false));
  useSync.setState({ status: null, progress: null, running: false, lastError: null, runError: null });
  stop = useSync.getState().start();
});
afterEach(() => stop());

const announcer = () => document.querySelector('[data-announcer]')!;

it('a sync that ends before the answer to "Sync now" arrives ends on screen and is said to have finished', async () => {
  desk.answer('sync.run', () => {
    desk.emit({ type: 'sync.progress', progress: { resource: 'projects', done: 3, total: 10, etaMs: null } });
    desk.emit({ type: 'sync.finished', status: status(false) });
    return { started: true };
  });
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
  desk.answer('sync.run', () => ({ started: true }));
  render(<SyncIndicator />);
  await page.getByRole('button', { name: 'Sync now' }).click();
  await expect.element(page.getByRole('button', { name: 'Syncing…' })).toBeVisible();
  desk.emit({ type: 'sync.finished', status: status(false) });
  await expect.element(page.getByRole('button', { name: 'Sync now' })).toBeVisible();
  expect(useSync.getState().running).toBe(false);
});
