// What the db seam throws when the database itself stands in the way (busy, unreachable, silent),
// on either engine; the HTTP layer answers each 503 with Retry-After. Exported through database.ts.

/**
 * A transaction that kept colliding with concurrent ones (PostgreSQL's serialization failures or
 * deadlocks, each attempt rolled back) until its bounded retries ran out: nothing was written, and
 * the same request may simply be sent again. The HTTP layer answers 503 with Retry-After.
 */
export class DatabaseBusyError extends Error {
  constructor(attempts: number, options?: ErrorOptions) {
    super(
      `The registry is busy with concurrent changes to the same records (${attempts} attempts); nothing was changed: try again`,
      options,
    );
    this.name = 'DatabaseBusyError';
  }
}

/**
 * The database cannot be reached (PostgreSQL restarted, the connection was cut, a backend was
 * terminated): the HTTP layer answers 503 with Retry-After while the engine reconnects by itself.
 * `outcomeUnknown`: the connection broke while a COMMIT was on its way, so the change may or may not
 * have been made; only a retry with the same Idempotency-Key can tell safely.
 */
export class DatabaseUnavailableError extends Error {
  constructor(
    readonly outcomeUnknown: boolean,
    options?: ErrorOptions,
  ) {
    super(
      outcomeUnknown
        ? 'The registry lost its database while committing this change, so it cannot tell whether the change was made. Retry with the same Idempotency-Key: the retry answers the outcome and never makes the change twice (a request sent without a key: check whether it took effect before sending it again)'
        : 'The registry cannot reach its database right now; try again in a moment',
      options,
    );
    this.name = 'DatabaseUnavailableError';
  }
}

/**
 * The database did not answer a statement in time (its statement_timeout or lock_timeout, or no
 * answer at all: a frozen server). Answered 503 like an outage: the statement was cancelled or
 * abandoned with its connection, and a transaction it was part of rolled back (unless it was the
 * COMMIT: then the outcome is unknown, as for a cut connection).
 */
export class DatabaseTimeoutError extends DatabaseUnavailableError {
  constructor(timeoutMs: number, options?: ErrorOptions) {
    super(false, options);
    this.message = `The registry's database did not answer within ${timeoutMs / 1000} s; try again in a moment`;
    this.name = 'DatabaseTimeoutError';
  }
}
