// The shapes of what either engine prepares (a raw statement, a query compiled once, a read bound
// to its values) and what running them answers; the engine seam (database.ts) hands them out.

/** What a change answers: rows changed, and the last inserted rowid (SQLite only; 0 elsewhere). */
export interface RunResult {
  changes: number;
  lastInsertRowid: number | bigint;
}

/** A prepared raw statement: values bound by position (`?`) or by name (`@name`, one object). */
export interface SyncStatement {
  all(...values: unknown[]): unknown[];
  get(...values: unknown[]): unknown;
  run(...values: unknown[]): RunResult;
}

/** A query compiled once, run with named values (see `SqliteDatabase.prepared`). */
export interface PreparedQuery<P, R> {
  all(values: P): R[];
  first(values: P): R | undefined;
  run(values: P): RunResult;
  /** `all`, letting the process serve other requests while the database answers (see SyncDatabase.allAsync). */
  allAsync(values: P): Promise<R[]>;
  /** The read with these values, not sent yet: for SyncDatabase.allAsyncTogether. */
  withValues(values: P): BoundRead<R>;
}

/** A prepared query's read with its values (PreparedQuery.withValues), made and run by one engine. */
export interface BoundRead<R> {
  /** The engine that made it, the only one that can run it. */
  readonly engine: 'sqlite' | 'postgres';
  /** Type witness only; never set. */
  readonly rows?: R[];
}

/** The rows of each of several reads, in their order. */
export type RowsOfEach<T extends unknown[]> = { [K in keyof T]: T[K][] };
