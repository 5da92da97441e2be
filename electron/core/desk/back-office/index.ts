// The back office's desk side: backOffice.session / read / write / settle for the active connection.
// - Reads go through the registry client (which validates params and query with the row's schemas)
//   with the connection's operator token; each answer is kept in the back-office store, which
//   answers the same read when the registry cannot be reached.
// - Writes carry the renderer's Idempotency-Key. A network error or timeout is retried with the same
//   key (the client's own retries, then a bounded few here); only when no answer came back at all is
//   the outcome `unsure`, which settle (the same key and body again: the registry replays its stored
//   answer, or does the write once) turns into done or refused. After `done` the desk emits
//   backOffice.changed, then syncs the back-office cache (sync.ts) and runs the usual sync.
// This file wires the parts: context.ts, operator-session.ts, reads.ts, writes.ts, sync-runs.ts.
import type { AccountMovementsOutput } from '@shared/desk/back-office';
import { backOfficeContext } from './context';
import { sessionReader } from './operator-session';
import { readThrough } from './reads';
import { syncRuns } from './sync-runs';
import type { BackOffice, BackOfficeOptions } from './types';
import { sendWrite } from './writes';

export { createCacheBackOfficeStore, requestKey, type BackOfficeStore } from './store';
export type { BackOffice, BackOfficeOptions, WriteInput } from './types';

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
