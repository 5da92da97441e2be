// What PostgreSQL's errors mean to the registry: retryable, timed out, a duplicate.

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
