// The sync engine's listeners, the same for the in-thread engine and the worker's host.
import type { SyncEngine, SyncEngineEvent } from './types';

export function syncListeners(): { emit(event: SyncEngineEvent): void } & Pick<SyncEngine, 'subscribe'> {
  const listeners = new Set<(event: SyncEngineEvent) => void>();
  return {
    emit(event) {
      for (const listener of listeners) {
        try {
          listener(event);
        } catch {
          // A listener's failure is its own; the sync goes on.
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
