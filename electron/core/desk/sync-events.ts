// The sync engine's events as the desk's events (service.ts hands them to its event hub).
import type { HistoryVerification, SyncStatus } from '@shared/desk/api';
import type { EventHub } from './events';
import type { OnlineTracker } from './registry-calls';
import type { SyncEngineEvent } from './sync/types';
/** The sync engine's events as desk events; reachability goes through the tracker. */
export function publishSyncEvent(
  hub: EventHub,
  tracker: OnlineTracker,
  event: SyncEngineEvent,
  runsEnded: SyncStatus['runsEnded'],
  history: () => HistoryVerification | null,
): void {
  switch (event.type) {
    case 'progress':
      hub.publish({ type: 'sync.progress', progress: event.progress });
      break;
    case 'online':
      tracker.report(event.online);
      break;
    case 'finished':
      if (event.result.ok) hub.publish({ type: 'sync.finished', status: { ...event.status, runsEnded, ...historyOf(history) } });
      else
        hub.publish({
          type: 'sync.failed',
          status: { ...event.status, runsEnded, ...historyOf(history) },
          message: event.status.lastError ?? (event.result.offline ? 'the registry cannot be reached' : 'the sync failed'),
        });
      break;
  }
}

const historyOf = (read: () => HistoryVerification | null) => {
  const history = read();
  return history ? { history } : {};
};
