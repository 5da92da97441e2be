// The desk's event stream: the sync engine and write actions publish, the hosts (IPC, SSE) listen.
// A listener that throws must not stop the others nor the publisher.
import type { DeskEvent } from '../../../shared/desk/api';

export interface EventHub {
  publish(event: DeskEvent): void;
  subscribe(listener: (event: DeskEvent) => void): () => void;
}

export function createEventHub(onListenerError: (error: unknown) => void = () => {}): EventHub {
  const listeners = new Set<(event: DeskEvent) => void>();
  return {
    publish(event) {
      for (const listener of [...listeners]) {
        try {
          listener(event);
        } catch (error) {
          onListenerError(error);
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
