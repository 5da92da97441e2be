// The sync indicator's state, fed by sync.status and the desk's sync events. Each finished sync
// bumps `dataVersion`, which screens use to reload what they show.
import { create } from 'zustand';
import type { SyncProgress, SyncStatus } from '@shared/desk/api';
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
  /** Follows the desk's sync (events, and its status while a sync runs); returns how to stop. */
  start(options?: { statusPollMs?: number }): () => void;
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
 * How many syncs this page has heard end (finished or failed). The answer to `sync.run` and the
 * events of the sync it started travel on different channels, so a quick sync can end before its
 * answer comes back: `run` then must not mark a sync running that is already over (the indicator
 * would say "Syncing…" until the next sync).
 */
let endedSyncs = 0;

/**
 * The desk service's count of ended runs as this page last applied it (SyncStatus.runsEnded). A
 * status answer and the sync events come on different channels: a status read before an end can
 * arrive after it (it is then older, and ignored), and an end's event can be lost (sent before the
 * page's event stream connected, or while it reconnected): a status then shows an end never heard,
 * which is applied once, as its event would have been, and its late event, if it comes, is not.
 */
let heard: SyncStatus['runsEnded'] | null = null;

type Order = 'first' | 'older' | 'same' | 'newer';
function orderOf(runsEnded: SyncStatus['runsEnded']): Order {
  // Another life of the desk service (restarted) counts from 0 again: start over from its count.
  if (!heard || heard.service !== runsEnded.service) return 'first';
  if (runsEnded.count < heard.count) return 'older';
  return runsEnded.count === heard.count ? 'same' : 'newer';
}

/** While a sync runs, its status is read this often, so a lost end event cannot leave "Syncing…" up. */
export const STATUS_POLL_MS = 4000;

export const useSync = create<SyncState>()((set, get) => {
  /** A sync's end: its data is on screen from now on (dataVersion), and it is said. */
  function applyEnd(status: SyncStatus, failure: string | null) {
    endedSyncs++;
    heard = status.runsEnded;
    if (failure !== null) setPageState('syncState', 'failed');
    else publish(status);
    set((s) => ({
      status,
      running: failure === null && status.running,
      progress: null,
      lastError: failure ?? status.lastError,
      dataVersion: s.dataVersion + 1,
    }));
    publishDataVersion(get().dataVersion);
    useFreshness.getState().setOnline(status.online);
    if (failure !== null) announce('desk:sync-failed', { message: failure });
    else announce('desk:sync-finished', { dataAsOf: status.dataAsOf });
  }

  /** A status read by sync.status (at start, and while a sync runs). */
  function applyStatus(status: SyncStatus) {
    const order = orderOf(status.runsEnded);
    if (order === 'older') return;
    if (order === 'newer') {
      // An end the page never heard: a run that has since ended with an error is said as failed.
      applyEnd({ ...status, running: false }, !status.running && status.lastError ? status.lastError : null);
      if (!status.running) return;
    }
    heard = status.runsEnded;
    publish(status);
    set({ status, running: status.running, progress: status.progress, lastError: status.lastError });
  }

  return {
    status: null,
    progress: null,
    running: false,
    lastError: null,
    runError: null,
    dataVersion: 0,

    start: (options = {}) => {
      publishDataVersion(get().dataVersion);
      const stop = onDeskEvent((event) => {
        switch (event.type) {
          case 'sync.progress':
            setPageState('syncState', 'running');
            set({ running: true, progress: event.progress });
            break;
          case 'sync.finished':
          case 'sync.failed': {
            const order = orderOf(event.status.runsEnded);
            // Already applied from a status that showed this end before its event came.
            if (order === 'older' || order === 'same') break;
            applyEnd(event.status, event.type === 'sync.failed' ? event.message : null);
            break;
          }
          case 'online.changed': {
            const wasOffline = useFreshness.getState().offline;
            useFreshness.getState().setOnline(event.online);
            // Back: what screens read from this computer's copy meanwhile (a warehouse without the
            // reservation made since the last sync, its actions disabled) is read again from the
            // registry now, not at the next sync minutes later.
            if (event.online && wasOffline) {
              set((s) => ({ dataVersion: s.dataVersion + 1 }));
              publishDataVersion(get().dataVersion);
            }
            break;
          }
          default:
            break;
        }
      });
      let reading = false;
      const readStatus = async () => {
        if (reading) return;
        reading = true;
        try {
          applyStatus(await desk('sync.status', {}));
        } catch {
          // The indicator keeps what it shows; the next read (or event) corrects it.
        } finally {
          reading = false;
        }
      };
      const poll = setInterval(() => {
        if (get().running) void readStatus();
      }, options.statusPollMs ?? STATUS_POLL_MS);
      void desk('sync.status', {}).then(
        (status) => {
          applyStatus(status);
          // A desk that has never synced (first start) gets its first sync now, unless one is under way.
          if (!status.running && !hasEverSynced(status)) void get().run();
        },
        (error: unknown) => set({ runError: describeError(error) }),
      );
      return () => {
        clearInterval(poll);
        stop();
      };
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
  };
});
