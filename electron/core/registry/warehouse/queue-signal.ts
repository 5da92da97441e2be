// An in-process doorbell between the finish request and the transaction worker: the request rings
// it after its transaction commits so the worker starts at once instead of at its next poll. Losing
// a ring is harmless (the worker also polls and drains on start); the queue itself is the database.
import type { RegistryContext } from '../context';

const listeners = new WeakMap<RegistryContext, Set<() => void>>();

export function onTransactionQueued(ctx: RegistryContext, listener: () => void): () => void {
  let set = listeners.get(ctx);
  if (!set) listeners.set(ctx, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

export function signalTransactionQueued(ctx: RegistryContext): void {
  for (const listener of listeners.get(ctx) ?? []) listener();
}
