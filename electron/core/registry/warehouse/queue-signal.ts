// In-process doorbells. The finish request rings `queued` after its transaction commits so the
// worker starts at once instead of at its next poll; the worker rings `handled` after it committed
// a transaction's outcome, for whoever waits on it (tests, a server reporting progress). Losing a
// ring is harmless (the worker also polls and drains on start); the queue itself is the database.
import type { RegistryContext } from '../context';

function doorbell<A extends unknown[]>() {
  const listeners = new WeakMap<RegistryContext, Set<(...args: A) => void>>();
  return {
    on(ctx: RegistryContext, listener: (...args: A) => void): () => void {
      let set = listeners.get(ctx);
      if (!set) listeners.set(ctx, (set = new Set()));
      set.add(listener);
      return () => set.delete(listener);
    },
    ring(ctx: RegistryContext, ...args: A): void {
      for (const listener of [...(listeners.get(ctx) ?? [])]) listener(...args);
    },
  };
}

const queued = doorbell<[]>();
const handled = doorbell<[transactionId: string]>();

export const onTransactionQueued = queued.on;
export const signalTransactionQueued = queued.ring;
export const onTransactionHandled = handled.on;
export const signalTransactionHandled = handled.ring;
