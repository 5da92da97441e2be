// Statements with a deadline. libpq's synchronous calls wait on the socket without limit, so a
// database that stops answering without closing the connection (a frozen server: SIGSTOP, a stuck
// host or VM, a backend waiting on a frozen lock holder that PostgreSQL's own timeouts cannot cut)
// would hold this process, and every request queued behind it, for ever. Here a statement is sent
// with libpq's asynchronous calls and its answer awaited in short naps: past the deadline the
// statement is abandoned (the caller drops the connection) and the request is answered 503.
//
// Why naps and not a blocking wait: Node has no synchronous wait on a socket with a timeout, and
// this engine blocks the process anyway (it serves one request at a time). A nap is a futex wait of
// a few tens of microseconds, which costs no CPU; spinning instead cost the database backend its
// core on a loaded machine.
import type { NativeClient } from './postgres-connection';
import type { ResultRows } from './postgres-rows';

const nap = new Int32Array(new SharedArrayBuffer(4));
/** First nap after sending (ms): a short query is answered within one or two. */
const FIRST_NAP_MS = 0.02;
/** Naps grow by half each time up to this (ms): few wake-ups on a slow answer, at most 1 ms late. */
const LONGEST_NAP_MS = 1;

/** The statement was not answered within its deadline; the connection is in an unknown state. */
export class StatementDeadlinePassed extends Error {
  constructor(readonly timeoutMs: number) {
    super(`the database did not answer within ${timeoutMs} ms`);
    this.name = 'StatementDeadlinePassed';
  }
}

/** Waits until libpq can hand over the next result without blocking; throws past `deadline`. */
function awaitResult(pq: NativeClient['pq'], deadline: number, timeoutMs: number): void {
  let napMs = FIRST_NAP_MS;
  while (pq.isBusy()) {
    // a broken connection: getResult() then reports it without waiting
    if (!pq.consumeInput() || !pq.isBusy()) return;
    const left = deadline - performance.now();
    if (left <= 0) throw new StatementDeadlinePassed(timeoutMs);
    Atomics.wait(nap, 0, 0, Math.min(napMs, left));
    napMs = Math.min(napMs * 1.5, LONGEST_NAP_MS);
  }
}

/**
 * Sends one command (`send`: one of libpq's sendQuery calls) and answers the rows of its last
 * result, as pg-native's synchronous calls do (and throws its error as they do, with the result's
 * error fields left on the handle for the caller to read). `reader`: the statement's, which keeps its
 * result's shape (postgres-rows.ts); without one, pg-native reads the rows.
 */
export function runWithDeadline(
  client: NativeClient,
  send: () => boolean,
  timeoutMs: number,
  reader?: ResultRows,
): Record<string, unknown>[] {
  const pq = client.pq;
  if (!send()) throw new Error(pq.errorMessage() || 'the statement could not be sent');
  const deadline = performance.now() + timeoutMs;
  let rows: Record<string, unknown>[] = [];
  for (;;) {
    awaitResult(pq, deadline, timeoutMs);
    if (!pq.getResult()) break;
    if (pq.resultStatus() !== 'PGRES_FATAL_ERROR') rows = reader ? reader.read(pq) : client._consumeQueryResults(pq).rows;
  }
  const error = pq.resultErrorMessage() || pq.errorMessage();
  if (error) throw new Error(error);
  return rows;
}

/**
 * Sends `text` (no parameters) and resolves once it is answered, without blocking the process:
 * polled from timers. Rejects with StatementDeadlinePassed past `timeoutMs` (the caller drops the
 * connection) or with the statement's error.
 */
export async function answeredInTime(client: NativeClient, text: string, timeoutMs: number): Promise<void> {
  const pq = client.pq;
  if (!pq.sendQuery(text)) throw new Error(pq.errorMessage() || 'the statement could not be sent');
  const deadline = performance.now() + timeoutMs;
  while (pq.isBusy() && pq.consumeInput() && pq.isBusy()) {
    if (performance.now() > deadline) throw new StatementDeadlinePassed(timeoutMs);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  // answered (or the connection broke): this reads the results without waiting
  runWithDeadline(client, () => true, timeoutMs);
}
