// The desk's event stream: the sync engine and write actions publish, the hosts (IPC, SSE) listen.
// A listener that throws must not stop the others nor the publisher.
import type { DeskEvent } from '@shared/desk/api';

export interface EventHub<E = DeskEvent> {
  publish(event: E): void;
  subscribe(listener: (event: E) => void): () => void;
}

export function createEventHub<E = DeskEvent>(onListenerError: (error: unknown) => void = () => {}): EventHub<E> {
  const listeners = new Set<(event: E) => void>();
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
