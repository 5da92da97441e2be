// The sync indicator's state, fed by sync.status and the desk's sync events. Each finished sync
// bumps `dataVersion`, which screens use to reload what they show.
import { create } from 'zustand';
import type { SyncProgress, SyncStatus } from '../../../shared/desk/api';
import { desk, describeError, onDeskEvent } from '../lib/desk';
import { announce, setPageState } from '../lib/signals';
import { useFreshness } from './freshness';

interface SyncState {
  status: SyncStatus | null;
  progress: SyncProgress | null;
  running: boolean;
  lastError: string | null;
  /** An error from asking for a sync (not from the sync itself). */
  runError: string | null;
  dataVersion: number;
  start(): () => void;
  run(): Promise<void>;
}

function hasEverSynced(status: SyncStatus): boolean {
  return Object.values(status.lastSuccess).some((time) => time !== null);
}

/** data-data-version on <html>: how many syncs have ended since the page loaded (lists say which one they show). */
function publishDataVersion(dataVersion: number) {
  setPageState('dataVersion', String(dataVersion));
}

/** data-sync-state on <html>: running | done | failed | idle, for tests and the bench. */
function publish(status: SyncStatus) {
  if (status.running) setPageState('syncState', 'running');
  else if (hasEverSynced(status) && !status.lastError) setPageState('syncState', 'done');
  else if (status.lastError) setPageState('syncState', 'failed');
  else setPageState('syncState', 'idle');
}

/**
 * How many syncs have ended (finished or failed) since the page loaded. The answer to `sync.run`
 * and the events of the sync it started travel on different channels, so a quick sync can end
 * before its answer comes back: `run` then must not mark a sync running that is already over
 * (the indicator would say "Syncing…" until the next sync).
 */
let endedSyncs = 0;

export const useSync = create<SyncState>()((set, get) => ({
  status: null,
  progress: null,
  running: false,
  lastError: null,
  runError: null,
  dataVersion: 0,

  start: () => {
    publishDataVersion(get().dataVersion);
    const stop = onDeskEvent((event) => {
      switch (event.type) {
        case 'sync.progress':
          setPageState('syncState', 'running');
          set({ running: true, progress: event.progress });
          break;
        case 'sync.finished':
          endedSyncs++;
          publish(event.status);
          set((s) => ({
            status: event.status,
            running: event.status.running,
            progress: null,
            lastError: event.status.lastError,
            dataVersion: s.dataVersion + 1,
          }));
          publishDataVersion(get().dataVersion);
          useFreshness.getState().setOnline(event.status.online);
          announce('desk:sync-finished', { dataAsOf: event.status.dataAsOf });
          break;
        case 'sync.failed':
          endedSyncs++;
          setPageState('syncState', 'failed');
          set((s) => ({ status: event.status, running: false, progress: null, lastError: event.message, dataVersion: s.dataVersion + 1 }));
          publishDataVersion(get().dataVersion);
          announce('desk:sync-failed', { message: event.message });
          break;
        case 'online.changed':
          useFreshness.getState().setOnline(event.online);
          break;
        default:
          break;
      }
    });
    void desk('sync.status', {}).then(
      (status) => {
        publish(status);
        set({ status, running: status.running, progress: status.progress, lastError: status.lastError });
        // A desk that has never synced (first start) gets its first sync now, unless one is under way.
        if (!status.running && !hasEverSynced(status)) void get().run();
      },
      (error: unknown) => set({ runError: describeError(error) }),
    );
    return stop;
  },

  run: async () => {
    set({ runError: null });
    const endedBefore = endedSyncs;
    try {
      const { started } = await desk('sync.run', {});
      if (started && endedSyncs === endedBefore) {
        setPageState('syncState', 'running');
        set({ running: true });
      }
    } catch (error) {
      set({ runError: describeError(error) });
    }
  },
}));
