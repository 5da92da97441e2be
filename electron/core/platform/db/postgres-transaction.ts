// Transactions on the main connection: SERIALIZABLE (or READ COMMITTED with row locks), re-run after a
// serialization failure or deadlock, savepoints when nested, deferred batches sent with the COMMIT, and
// a COMMIT whose outcome is unknown reported as such.
import {
  compileWithPlaceholders,
  DatabaseBusyError,
  DatabaseUnavailableError,
  type SyncDatabase,
  type TransactionOptions,
} from './database';
import { inlineParameters, PendingBatches, type CommitBatch } from './commit-batches';
import type { NativeClient, PostgresConnection } from './postgres-connection';
import { PostgresError, RETRYABLE, UNIQUE_VIOLATION } from './postgres-errors';

/** How many times a transaction is run before its serialization failure is reported. */
export const MAX_TRANSACTION_ATTEMPTS = 20;

const pause = new Int32Array(new SharedArrayBuffer(4));
/**
 * Before running a transaction again: a random pause, up to 1, 2, 4 … 64 ms as attempts grow, so
 * that processes which keep colliding (on a loaded machine, one slow transaction against a stream
 * of fast ones) stop doing so. Blocking is what this engine does anyway: the process serves one
 * request at a time.
 */
export function backOff(attempt: number): void {
  Atomics.wait(pause, 0, 0, Math.random() * 2 ** Math.min(attempt - 1, 6));
}

/** What transactions need of the database they run on. */
export interface TransactionHost<Tables> {
  readonly db: SyncDatabase<Tables> & { exec(sql: string): void };
  readonly connection: PostgresConnection;
  /** SET LOCAL of the timeouts, sent with every BEGIN behind a pooler (where session settings are lost). */
  readonly localTimeouts: string;
  timed(client: NativeClient, send: (pq: NativeClient['pq']) => boolean): unknown;
}

export class PostgresTransactions<Tables> {
  /** 0 outside a transaction, 1 inside one, more inside savepoints. */
  depth = 0;
  /** Set when a statement of the running transaction failed retryably (even if the code caught it). */
  mustRetry = false;
  /** Transactions re-run after a serialization failure or deadlock (for measurements). */
  retries = 0;
  private readonly batches = new PendingBatches<SyncDatabase<Tables>>();
  /** The statements sent with COMMIT, compiled once each (keyed by their `build`). */
  private readonly commitStatements = new WeakMap<object, { sql: string; bind: (values: Record<string, string | number>) => unknown[] }>();

  constructor(private readonly host: TransactionHost<Tables>) {}

  private exec(sql: string): void {
    this.host.db.exec(sql);
  }

  /**
   * One SERIALIZABLE transaction (a savepoint when nested). A throw rolls it back; a serialization
   * failure or deadlock anywhere in it (even one the code caught) runs `fn` again, up to
   * MAX_TRANSACTION_ATTEMPTS times, so `fn` must only touch the database and its own locals.
   *
   * `rowLocks`: READ COMMITTED instead, for a hot check-then-write whose code first locks the row
   * its check depends on (`lockRows`; a reservation: its credit's warehouse balance). Transactions
   * locking that row queue on it rather than collide and run again, and each statement after the
   * lock reads what the previous holder committed (bench/postgres.bench.ts measured it against
   * SERIALIZABLE). Only correct where every other write that could invalidate the check either locks
   * the same row first or, SERIALIZABLE, writes a row the locking transaction also writes (so it
   * fails and runs again); warehouse/reservations.ts says which. Nested, it runs at the enclosing
   * transaction's level.
   */
  run<T>(fn: () => T, options?: TransactionOptions): T {
    if (this.depth > 0) return this.savepoint(fn);
    for (let attempt = 1; ; attempt++) {
      this.mustRetry = false;
      this.batches.clear();
      this.exec(`BEGIN ISOLATION LEVEL ${options?.rowLocks ? 'READ COMMITTED' : 'SERIALIZABLE'}${this.host.localTimeouts}`);
      this.depth = 1;
      try {
        const result = fn();
        const withCommit = this.writeBatches();
        // a failed statement that the code caught leaves the transaction aborted: COMMIT would
        // silently roll back, so it is a failure here
        const status = this.host.connection.client.pq.transactionStatus();
        // the connection broke under a statement the code caught: the transaction is gone
        if (status === 4 && this.host.connection.lost(undefined)) throw new DatabaseUnavailableError(false);
        if (status === 3) {
          throw this.mustRetry
            ? new PostgresError('could not serialize access', '40001')
            : new Error('a statement failed inside the transaction');
        }
        try {
          this.exec(withCommit ? `${withCommit}; COMMIT` : 'COMMIT');
        } catch (error) {
          // the connection broke with the COMMIT on its way: it may have been applied, or not
          if (error instanceof DatabaseUnavailableError) throw new DatabaseUnavailableError(true, { cause: error });
          throw error;
        }
        return result;
      } catch (error) {
        this.depth = 0;
        this.batches.clear();
        this.rollback();
        const code = error instanceof PostgresError ? error.code : '';
        // A unique violation against a concurrent transaction's insert is how PostgreSQL often
        // reports a serialization failure of a check-then-insert (two finishes of one reservation
        // both inserting its transaction): run again, the check then sees the winner. A genuine
        // duplicate fails the same way again, so it is retried only twice.
        const collided = this.mustRetry || RETRYABLE.has(code);
        const retryable = collided || (code === UNIQUE_VIOLATION && attempt < 3);
        if (!retryable) throw error;
        if (attempt >= MAX_TRANSACTION_ATTEMPTS) throw collided ? new DatabaseBusyError(attempt, { cause: error }) : error;
        this.retries += 1;
        backOff(attempt);
      } finally {
        this.depth = 0;
      }
    }
  }

  deferToCommit<T>(batch: CommitBatch<T, SyncDatabase<Tables>>, item: T): void {
    if (this.depth === 0) batch.write(this.host.db, [item]);
    else this.batches.add(batch, item);
  }

  /**
   * Writes the deferred batches that have no statement to send with the COMMIT; answers the text of
   * those that do (values inlined, joined by `;`), or '' when there is none.
   */
  private writeBatches(): string {
    const texts: string[] = [];
    for (const [batch, items] of this.batches.take()) {
      const statement = batch.withCommit;
      if (!statement) {
        batch.write(this.host.db, items);
        continue;
      }
      let compiled = this.commitStatements.get(statement.build);
      if (!compiled) {
        compiled = compileWithPlaceholders(this.host.db, statement.build);
        this.commitStatements.set(statement.build, compiled);
      }
      const escape = (text: string): string => {
        // node-libpq hands an empty string back unquoted, and a failure as null
        const quoted: unknown = text === '' ? "''" : this.host.connection.client.pq.escapeLiteral(text);
        if (typeof quoted !== 'string') throw new Error('a value sent with COMMIT could not be quoted');
        return quoted;
      };
      texts.push(inlineParameters(compiled.sql, compiled.bind(statement.values(items)), escape));
    }
    return texts.join('; ');
  }

  private savepoint<T>(fn: () => T): T {
    const mark = this.batches.mark();
    const name = `sp${this.depth}`;
    this.exec(`SAVEPOINT ${name}`);
    this.depth += 1;
    try {
      const result = fn();
      this.depth -= 1;
      this.exec(`RELEASE SAVEPOINT ${name}`);
      return result;
    } catch (error) {
      this.depth -= 1;
      this.batches.rollbackTo(mark);
      if (!this.mustRetry) this.exec(`ROLLBACK TO SAVEPOINT ${name}; RELEASE SAVEPOINT ${name}`);
      throw error;
    }
  }

  private rollback(): void {
    const client = this.host.connection.client;
    // a COMMIT that failed (a serialization failure found at commit) has already ended it; a broken
    // (or abandoned) connection took the transaction with it
    const status = client.pq.transactionStatus();
    if (status === 0 || status === 4 || this.host.connection.isBroken) return;
    try {
      this.host.timed(client, (pq) => pq.sendQuery('ROLLBACK'));
    } catch {
      // the connection is gone or no transaction is open: nothing to undo
    }
  }
}
