// What PostgreSQL's errors mean to the registry: retryable, timed out, a duplicate.
import { DatabaseTimeoutError, DatabaseUnavailableError } from './database-errors';
import { connectionGone, type NativeClient } from './postgres-connection';
import type { ReadFailure } from './postgres-read-types';
import { StatementDeadlinePassed } from './postgres-timed';

/** An error PostgreSQL reported: `message` is its primary message, `code` its SQLSTATE. */
export class PostgresError extends Error {
  constructor(
    message: string,
    readonly code: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'PostgresError';
  }
}

/** serialization_failure and deadlock_detected: the transaction may simply be run again. */
export const RETRYABLE = new Set(['40001', '40P01']);
export const UNIQUE_VIOLATION = '23505';
/** query_canceled (statement_timeout), lock_not_available (lock_timeout): cancelled by PostgreSQL's own timeouts. */
export const TIMED_OUT = new Set(['57014', '55P03']);

/** What a failed read on a read connection reports (as the main connection's failures), and whether it was cut. */
export function readFailure(error: unknown, client: NativeClient, statementTimeoutMs: number): ReadFailure {
  if (error instanceof StatementDeadlinePassed)
    return { reported: new DatabaseTimeoutError(error.timeoutMs, { cause: error }), cut: false };
  const fields = client.pq.resultErrorFields();
  if (connectionGone(client.pq, fields?.sqlState)) return { reported: new DatabaseUnavailableError(false, { cause: error }), cut: true };
  const code = fields?.sqlState ?? 'XX000';
  if (TIMED_OUT.has(code)) return { reported: new DatabaseTimeoutError(statementTimeoutMs, { cause: error }), cut: false };
  const message = fields?.messagePrimary ?? String((error as Error).message).trim();
  return { reported: new PostgresError(message, code, { cause: error }), cut: false };
}
