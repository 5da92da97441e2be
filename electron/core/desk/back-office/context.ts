// What the back office's parts share (index.ts): the active connection, its store of read answers,
// and how a call reports whether the registry was reached.
import type { Clock } from '@platform/clock';
import { RegistryClientError } from '@desk/client/errors';
import type { ConnectionRuntime } from '@desk/connection-runtime';
import { DeskFailure } from '@desk/errors';
import type { OnlineTracker } from '@desk/registry-calls';
import { createCacheBackOfficeStore, type BackOfficeStore } from './store';
import type { BackOfficeOptions } from './types';

export const NO_OPERATOR =
  'This connection has no operator account: in Settings, add the connection again with the operator id and its key file (picked like the app key)';

/** What the back office's parts share: its options, and the active connection with its store. */
export interface BackOfficeContext {
  options: BackOfficeOptions;
  tracker: OnlineTracker;
  clock: Clock;
  log: (line: string) => void;
  /** The active connection's runtime; a failure when none is active. */
  runtime(): ConnectionRuntime;
  /** The connection's store of read answers (one per runtime). */
  storeOf(active: ConnectionRuntime): BackOfficeStore;
  /** A call that reports reachability (a refusal is an answer: the registry was reached). */
  reach<T>(call: () => Promise<T>): Promise<T>;
}

export function backOfficeContext(options: BackOfficeOptions): BackOfficeContext {
  const { tracker, clock } = options;
  const log = options.log ?? (() => {});
  const stores = new WeakMap<ConnectionRuntime, BackOfficeStore>();

  function runtime(): ConnectionRuntime {
    const active = options.active();
    if (!active) throw new DeskFailure('not_found', 'No registry connection is active: add or activate one in Settings');
    return active;
  }

  function storeOf(active: ConnectionRuntime): BackOfficeStore {
    let store = stores.get(active);
    if (!store) {
      store = options.storeFor?.(active) ?? createCacheBackOfficeStore(active.cache.db);
      stores.set(active, store);
    }
    return store;
  }

  /** A call that reports reachability (a refusal is an answer: the registry was reached). */
  async function reach<T>(call: () => Promise<T>): Promise<T> {
    try {
      const result = await call();
      tracker.report(true);
      return result;
    } catch (error) {
      if (error instanceof RegistryClientError) tracker.report(!error.unreachable);
      throw error;
    }
  }

  return { options, tracker, clock, log, runtime, storeOf, reach };
}

export function requireOperator(active: ConnectionRuntime): void {
  if (active.connection.operatorId === undefined) throw new DeskFailure('forbidden', NO_OPERATOR);
}
