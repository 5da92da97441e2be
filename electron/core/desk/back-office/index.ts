// The back office's desk side: backOffice.session / read / write / settle for the active connection.
// - Reads go through the registry client (which validates params and query with the row's schemas)
//   with the connection's operator token; each answer is kept in the back-office store, which
//   answers the same read when the registry cannot be reached.
// - Writes carry the renderer's Idempotency-Key. A network error or timeout is retried with the same
//   key (the client's own retries, then a bounded few here); only when no answer came back at all is
//   the outcome `unsure`, which settle (the same key and body again: the registry replays its stored
//   answer, or does the write once) turns into done or refused. After `done` the desk emits
//   backOffice.changed, then syncs the back-office cache (sync.ts) and runs the usual sync.
import type { z } from 'zod';
import type {
  AccountMovementsOutput,
  BackOfficeOperator,
  BackOfficeSession,
  OperatorReadName,
  OperatorWriteName,
  backOfficeReadOutput,
  BackOfficeWriteOutput,
} from '@shared/desk/back-office';
import { OPERATOR_READS_NOT_KEPT } from '@shared/desk/back-office';
import type { DeskEvent } from '@shared/desk/api';
import type { EndpointId } from '@shared/registry/endpoints';
import type { Clock } from '@platform/clock';
import { RegistryClientError } from '../client/errors';
import { NetworkError } from '../client/http';
import type { CallInput } from '../client/registry-client';
import type { ConnectionRuntime } from '../connection-runtime';
import { DeskFailure, offlineFailure } from '../errors';
import { translateClientError, type OnlineTracker } from '../registry-calls';
import { sessionOf } from './session';
import { createCacheBackOfficeStore, requestKey, type AuditQuery, type BackOfficeStore } from './store';
import { syncBackOffice } from './sync';
import { settleRefusals } from '../verification/guard';

export { createCacheBackOfficeStore, requestKey, type BackOfficeStore } from './store';

export interface BackOfficeOptions {
  /** The active connection's runtime, or null when none is active. */
  active: () => ConnectionRuntime | null;
  tracker: OnlineTracker;
  publish(event: DeskEvent): void;
  clock: Clock;
  /** The store of read answers of a connection (the back-office cache). */
  storeFor?: (runtime: ConnectionRuntime) => BackOfficeStore;
  /** Sends of a write in all, each with the client's own retries (default 3), and the wait between them. */
  writeAttempts?: number;
  writeRetryDelayMs?: number;
  log?: (line: string) => void;
}

export interface BackOffice {
  session(): Promise<BackOfficeSession>;
  read(input: {
    endpoint: OperatorReadName;
    params?: Record<string, string>;
    query?: Record<string, string | number>;
  }): Promise<z.output<typeof backOfficeReadOutput>>;
  write(input: WriteInput): Promise<BackOfficeWriteOutput>;
  settle(input: WriteInput): Promise<BackOfficeWriteOutput>;
  accountMovements(input: { accountIds: string[]; offset: number; limit: number }): AccountMovementsOutput;
  /** Syncs the back-office cache of the active connection (after the seed sync); one run at a time. */
  sync(): Promise<void>;
}

export interface WriteInput {
  endpoint: OperatorWriteName;
  params?: Record<string, string>;
  body?: unknown;
  idempotencyKey: string;
}

const NO_OPERATOR =
  'This connection has no operator account: in Settings, add the connection again with the operator id and its key file (picked like the app key)';

const sleepReal = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

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

/** backOffice.session: the operator the connection acts as, confirmed by the registry when it answers. */
export function sessionReader(ctx: BackOfficeContext): () => Promise<BackOfficeSession> {
  const { options, tracker, clock, storeOf, reach } = ctx;
  /** The operator each connection was last confirmed as (to show it offline). */
  const known = new Map<string, BackOfficeOperator>();

  return async function session(): Promise<BackOfficeSession> {
    const active = options.active();
    const base = { online: tracker.online, now: clock.now() };
    if (!active) return sessionOf({ ...base, operator: undefined, unavailableReason: 'No registry connection is active', syncedAt: null });
    const store = storeOf(active);
    const { connection } = active;
    if (connection.operatorId === undefined)
      return sessionOf({ ...base, operator: undefined, unavailableReason: NO_OPERATOR, syncedAt: store.latestFetchedAt() });
    let operator: BackOfficeOperator | undefined;
    let unavailableReason: string | undefined;
    try {
      const self = await reach(() => active.client.call('operatorGetSelf'));
      operator = { id: self.operator.id, name: self.operator.name, role: self.operator.role };
      if (!self.operator.active) {
        operator = undefined;
        unavailableReason = `The operator account ${self.operator.name} is disabled on this registry: an administrator can enable it`;
      }
    } catch (error) {
      if (error instanceof RegistryClientError && error.unreachable) {
        operator = known.get(connection.id) ?? store.operator() ?? undefined;
        if (!operator)
          unavailableReason = `The registry cannot be reached to confirm the operator account ${connection.operatorId}; the back office opens once it can`;
      } else {
        const failure = translateClientError(error, 'Reading the operator account');
        const message = failure instanceof Error ? failure.message : String(failure);
        unavailableReason = `The registry does not accept the operator account ${connection.operatorId}: ${message}. Check its id and key file in Settings`;
      }
    }
    if (operator) {
      known.set(connection.id, operator);
      store.rememberOperator(operator);
    }
    return sessionOf({
      online: tracker.online,
      now: clock.now(),
      operator,
      ...(unavailableReason !== undefined ? { unavailableReason } : {}),
      syncedAt: store.latestFetchedAt(),
    });
  };
}

/** backOffice.read: the registry's answer, kept; offline, the answer kept or the back-office tables'. */
export async function readThrough(ctx: BackOfficeContext, input: Parameters<BackOffice['read']>[0]) {
  const { clock, runtime, storeOf, reach } = ctx;
  const active = runtime();
  requireOperator(active);
  const store = storeOf(active);
  const key = requestKey(input);
  const call = { params: input.params ?? {}, query: input.query ?? {} } as CallInput<EndpointId>;
  try {
    const data: unknown = await reach(() => active.client.call(input.endpoint, call as never));
    const fetchedAt = clock.now();
    if (!OPERATOR_READS_NOT_KEPT.includes(input.endpoint)) store.put(input, data, fetchedAt);
    return { data, source: 'registry' as const, fetchedAt: new Date(fetchedAt).toISOString() };
  } catch (error) {
    if (error instanceof RegistryClientError && error.unreachable) {
      if (OPERATOR_READS_NOT_KEPT.includes(input.endpoint)) {
        throw new DeskFailure(
          'offline',
          'The registry cannot be reached: reviewing a change needs it, to say what the change would do now',
        );
      }
      const offline = offlineAnswer(store, input);
      if (offline) return { data: offline.data, source: 'cache' as const, fetchedAt: new Date(offline.fetchedAt).toISOString() };
      const saved = store.get(key);
      if (saved) return { data: saved.data, source: 'cache' as const, fetchedAt: new Date(saved.fetchedAt).toISOString() };
      throw new DeskFailure(
        'offline',
        'The registry cannot be reached, and the desk has not saved this view yet: it is saved the first time it is read online',
      );
    }
    throw translateClientError(error, 'Reading the back office');
  }
}

/** backOffice.write and settle: sent with its idempotency key, retried, and answered done, refused or unsure. */
export async function sendWrite(
  ctx: BackOfficeContext & { sync(): Promise<void> },
  input: WriteInput,
  action: 'write' | 'settle',
): Promise<BackOfficeWriteOutput> {
  const { options, log, runtime, reach } = ctx;
  const attempts = Math.max(1, options.writeAttempts ?? 3);
  const retryDelayMs = options.writeRetryDelayMs ?? 500;
  const active = runtime();
  requireOperator(active);
  const call = {
    params: input.params ?? {},
    ...(input.body !== undefined ? { body: input.body } : {}),
    idempotencyKey: input.idempotencyKey,
  } as CallInput<EndpointId>;
  let lastError: RegistryClientError | undefined;
  let everSent = false;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      const data: unknown = await reach(() => active.client.call(input.endpoint, call as never));
      afterDone(ctx, active, input.endpoint);
      return { outcome: 'done', data };
    } catch (error) {
      if (!(error instanceof RegistryClientError)) throw error;
      if (error.kind === 'invalid_request') throw translateClientError(error, input.endpoint);
      if (error.kind === 'key_unavailable') throw translateClientError(error, input.endpoint);
      if (error.kind === 'http') {
        const status = error.status ?? 0;
        // A gateway's answer says nothing of whether the registry did it: like a lost answer.
        if (![502, 503, 504].includes(status)) {
          const failure = translateClientError(error, input.endpoint);
          return { outcome: 'refused', status, message: failure instanceof Error ? failure.message : String(failure) };
        }
        everSent = true;
      } else if (error.kind === 'invalid_response') {
        // It answered success in a form the desk cannot read: it was done.
        log(`${input.endpoint}: ${error.message}`);
        afterDone(ctx, active, input.endpoint);
        return { outcome: 'done', data: null };
      } else if (!(error instanceof NetworkError && error.neverSent)) everSent = true;
      lastError = error;
      if (attempt < attempts) await sleepReal(retryDelayMs * attempt);
    }
  }
  if (!everSent) throw offlineFailure(action === 'write' ? 'This change' : 'Checking the change');
  return {
    outcome: 'unsure',
    message: `No answer came back from the registry (${lastError?.message ?? 'network error'}); the change may or may not have been made. The desk checks again with the same request, which can only be made once.`,
  };
}

/**
 * After a write was done: screens reload at once (their reads go to the registry), while the
 * back-office cache is synced (incrementally) and the usual sync runs, in the background, so
 * offline review stays current.
 */
function afterDone(ctx: BackOfficeContext & { sync(): Promise<void> }, active: ConnectionRuntime, endpoint: OperatorWriteName): void {
  const { options, log, sync } = ctx;
  options.publish({ type: 'backOffice.changed', endpoint });
  void sync().finally(() => {
    void active.sync.run().catch((error: unknown) => log(`sync after ${endpoint} failed: ${(error as Error).message}`));
  });
}

/** The back-office cache's sync, one run at a time (a run asked for during one follows it). */
export function syncRuns(ctx: BackOfficeContext): () => Promise<void> {
  const { options, tracker, clock, log, storeOf } = ctx;
  let running: Promise<void> | null = null;
  let queued: Promise<void> | null = null;
  /**
   * A sync that starts after this call. A run already under way (a write's, or one the reachability
   * probe started) may have read the lists before the caller's change: joining it would hand back
   * stale lists, so one more run follows it, shared by every caller that asked meanwhile.
   */
  function sync(): Promise<void> {
    if (running) {
      queued ??= running.then(() => {
        queued = null;
        return sync();
      });
      return queued;
    }
    const active = options.active();
    if (!active || active.connection.operatorId === undefined) return Promise.resolve();
    running = syncBackOffice(active.client, storeOf(active), clock)
      .then(() => tracker.report(true))
      .catch((error: unknown) => {
        if (error instanceof RegistryClientError) tracker.report(!error.unreachable);
        log(`back-office sync failed: ${error instanceof Error ? error.message : String(error)}`);
      })
      .finally(() => {
        running = null;
        // credit histories the cache refused (they differ from their verified leaves) become evidence
        settleRefusals(active.cache.db, clock.now());
      });
    return running;
  }
  return sync;
}

export function createBackOffice(options: BackOfficeOptions): BackOffice {
  const base = backOfficeContext(options);
  const ctx = { ...base, sync: syncRuns(base) };
  const { runtime, storeOf, sync } = ctx;

  function accountMovements(input: { accountIds: string[]; offset: number; limit: number }): AccountMovementsOutput {
    const store = storeOf(runtime());
    const latest = store.latestFetchedAt();
    return {
      ...store.accountMovements(input.accountIds, input.offset, input.limit),
      asOf: latest === null ? null : new Date(latest).toISOString(),
    };
  }

  return {
    session: sessionReader(ctx),
    read: (input) => readThrough(ctx, input),
    write: (input) => sendWrite(ctx, input, 'write'),
    settle: (input) => sendWrite(ctx, input, 'settle'),
    accountMovements,
    sync,
  };
}

/**
 * Offline answers the back-office tables give beyond the saved answers: the audit log filtered as
 * the registry filters it, and a credit's history. Null: not held (the saved answer, if any, is used).
 */
function offlineAnswer(store: BackOfficeStore, input: Parameters<BackOffice['read']>[0]): { data: unknown; fetchedAt: number } | null {
  const query = input.query ?? {};
  const text = (name: string) => (query[name] === undefined ? undefined : String(query[name]));
  const fetchedAt = store.latestFetchedAt();
  if (fetchedAt === null) return null;
  if (input.endpoint === 'operatorSearchAudit') {
    const time = (name: string) => (text(name) === undefined ? undefined : Date.parse(text(name)!));
    const audit: AuditQuery = {
      limit: Math.min(Number(text('limit') ?? 10) || 10, 100),
      cursor: text('cursor'),
      operatorId: text('operatorId'),
      action: text('action'),
      targetId: text('targetId'),
      from: time('from'),
      to: time('to'),
    };
    const found = store.searchAudit(audit);
    return found ? { data: found, fetchedAt } : null;
  }
  if (input.endpoint === 'operatorCreditHistory') {
    const found = store.creditHistory({ creditId: text('creditId'), serialization: text('serialization') });
    return found ? { data: found, fetchedAt } : null;
  }
  return null;
}
