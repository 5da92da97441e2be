// SQLite through better-sqlite3, with kysely as the typed query builder only. Queries are built on
// `q` against the store's table interfaces (RegistryTables, CacheTables), compiled by kysely and
// executed synchronously by better-sqlite3 (`all`, `first`, `run`): a multi-row change is one
// synchronous `transaction()`, so no other request can interleave with it on the event loop, and
// prepared statements are cached by their SQL. Hand-tuned SQL goes through kysely's `sql` template
// with its result type (`sql<Row>\`…\``) and runs the same way. Compiling costs about as much as
// running a small statement, so statements run often are compiled once with `prepared`.
import BetterSqlite3 from 'better-sqlite3';
import {
  DummyDriver,
  Kysely,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type Compilable,
  type CompiledQuery,
  type RawBuilder,
} from 'kysely';
import { PendingBatches, type CommitBatch } from './commit-batches';

export type RawDatabase = BetterSqlite3.Database;

/** What the helpers run: a kysely query builder or a `sql` template, with its result row type. */
export type Query<R> = Compilable<R> | RawBuilder<R>;

/** A value that stands for the `key` parameter of a prepared query until it is run. */
class Placeholder {
  constructor(readonly key: string) {}
}

// What statements and prepared queries are and answer lives in database-statements.ts; callers
// import them from here with the rest of the seam.
import type { BoundRead, PreparedQuery, RowsOfEach, RunResult, SyncStatement } from './database-statements';
export type { BoundRead, PreparedQuery, RowsOfEach, RunResult, SyncStatement } from './database-statements';

/**
 * The engine seam: what store code may use, run synchronously by either engine. SQLite
 * (`SqliteDatabase`, one file, one process) or PostgreSQL (`PostgresDatabase` in postgres.ts, libpq's
 * synchronous API: a process serves one request at a time, several processes share the database).
 */
export interface SyncDatabase<Tables> {
  readonly engine: 'sqlite' | 'postgres';
  /** Builds queries in the engine's dialect; never executes them. */
  readonly q: Kysely<Tables>;
  prepare(sql: string): SyncStatement;
  compile<R>(query: Query<R>): CompiledQuery<R>;
  all<R>(query: Query<R>): R[];
  first<R>(query: Query<R>): R | undefined;
  run(query: Query<unknown>): RunResult;
  /**
   * One read outside any transaction (refused inside one) that does not hold the process while the
   * database answers: on PostgreSQL the process serves other requests meanwhile, and the read runs on
   * a small pool of connections of its own, several at once (it sees every write committed before it
   * was asked); on SQLite it runs at once, there being no wait to use. For the hottest reads, where
   * the round trip was most of a request's time.
   */
  allAsync<R>(query: Query<R>): Promise<R[]>;
  /**
   * allAsync of several reads, answered in order. On PostgreSQL they are sent together on one read
   * connection and cost one round trip between them (libpq's pipeline: postgres-pipeline.ts), where
   * reads asked one after another cost one each; on SQLite they run at once, one after another.
   */
  allAsyncTogether<T extends unknown[]>(...reads: { [K in keyof T]: BoundRead<T[K]> }): Promise<RowsOfEach<T>>;
  prepared<P extends Record<string, unknown>, R>(build: (values: P, q: Kysely<Tables>) => Query<R>): PreparedQuery<P, R>;
  /**
   * Runs `fn` as one transaction (a savepoint when nested); a throw rolls all of it back. With
   * `rowLocks`, `fn` locks the rows its check depends on itself (`lockRows`) before reading the rest:
   * READ COMMITTED instead of SERIALIZABLE on PostgreSQL (see PostgresDatabase.transaction); SQLite's
   * write transaction excludes every other, so it runs both alike.
   */
  transaction<T>(fn: () => T, options?: TransactionOptions): T;
  /**
   * Adds `item` to `batch` (commit-batches.ts): written with the batch's other items just before the
   * outermost transaction commits, inside it, and dropped with a savepoint or transaction that rolls
   * back. Outside any transaction, written at once.
   */
  deferToCommit<T>(batch: CommitBatch<T, SyncDatabase<Tables>>, item: T): void;
  /** A value that changes whenever the database may have changed (in any connection or process). */
  changeStamp(): string;
  /**
   * Appended to a SELECT inside a transaction, claims the rows it answers until the transaction ends
   * and skips rows another transaction claimed, without waiting for it (a work queue shared by
   * several processes): `FOR UPDATE SKIP LOCKED` on PostgreSQL; nothing on SQLite, whose write
   * transaction already excludes every other.
   */
  readonly claimRows: string;
  /**
   * Appended to a SELECT inside a `rowLocks` transaction, locks the rows it answers until the
   * transaction ends; another transaction locking them waits: `FOR UPDATE` on PostgreSQL, nothing
   * on SQLite.
   */
  readonly lockRows: string;
  /**
   * The longest one call may hold the process while it waits on the database (the engines are
   * synchronous: the event loop runs no timer and reads no socket meanwhile). The HTTP server keeps
   * idle connections open longer than it advertises by more than this (connection-limits.ts).
   */
  readonly longestHoldMs: number;
  close(): void;
}

/** How long SQLite waits for another connection's write lock before answering SQLITE_BUSY (open.ts). */
export const SQLITE_BUSY_TIMEOUT_MS = 5000;

// The seam's errors live in database-errors.ts; callers import them from here with the rest.
export { DatabaseBusyError, DatabaseTimeoutError, DatabaseUnavailableError } from './database-errors';

export interface TransactionOptions {
  /** The transaction locks the rows its check reads (`lockRows`) instead of relying on SERIALIZABLE. */
  rowLocks?: boolean;
}

/** Compiles `build` once with one placeholder per named value; answers the SQL and a binder. */
export function compileWithPlaceholders<P extends Record<string, unknown>, Tables>(
  db: Pick<SyncDatabase<Tables>, 'compile' | 'q'>,
  build: (values: P, q: Kysely<Tables>) => Query<unknown>,
): { sql: string; bind: (values: P) => unknown[] } {
  const placeholders = new Proxy({} as P, { get: (_target, key) => new Placeholder(String(key)) });
  const { sql, parameters } = db.compile(build(placeholders, db.q));
  return { sql, bind: (values: P) => parameters.map((p) => (p instanceof Placeholder ? (values[p.key] ?? null) : p)) };
}

/** SQLite's BoundRead: the statement bound, run when asked. */
class SqliteRead<R> implements BoundRead<R> {
  readonly engine = 'sqlite';
  constructor(readonly run: () => R[]) {}
}

const CHANGE_STAMP_SQL = 'SELECT total_changes() AS changes, (SELECT data_version FROM pragma_data_version()) AS version';

export class SqliteDatabase<Tables> implements SyncDatabase<Tables> {
  readonly engine = 'sqlite';
  readonly claimRows = '';
  readonly lockRows = '';
  /** A write waits for another process's write lock up to its busy timeout. */
  readonly longestHoldMs = SQLITE_BUSY_TIMEOUT_MS;
  /** Builds queries; never executes them (its driver is a dummy). */
  readonly q: Kysely<Tables>;
  private readonly statements = new Map<string, BetterSqlite3.Statement<unknown[], unknown>>();
  private readonly preparedQueries = new WeakMap<object, PreparedQuery<never, unknown>>();
  private readonly batches = new PendingBatches<SyncDatabase<Tables>>();
  /** How deep in this object's transactions the connection is (0: none of them is open). */
  private depth = 0;

  constructor(readonly raw: RawDatabase) {
    this.q = new Kysely<Tables>({
      dialect: {
        createAdapter: () => new SqliteAdapter(),
        createDriver: () => new DummyDriver(),
        createIntrospector: (db) => new SqliteIntrospector(db),
        createQueryCompiler: () => new SqliteQueryCompiler(),
      },
    });
  }

  /** A cached prepared statement for raw SQL (the read queries and hot paths not yet on kysely). */
  prepare(sql: string): BetterSqlite3.Statement<unknown[], unknown> {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.raw.prepare<unknown[], unknown>(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  compile<R>(query: Query<R>): CompiledQuery<R> {
    return 'isRawBuilder' in query ? query.compile(this.q) : query.compile();
  }

  /** Every row of the query, typed by it. */
  all<R>(query: Query<R>): R[] {
    const { sql, parameters } = this.compile(query);
    return this.prepare(sql).all(...parameters) as R[];
  }

  /** `all`, as a promise (SQLite answers at once: there is no round trip to wait on). */
  async allAsync<R>(query: Query<R>): Promise<R[]> {
    return this.all(query);
  }

  async allAsyncTogether<T extends unknown[]>(...reads: { [K in keyof T]: BoundRead<T[K]> }): Promise<RowsOfEach<T>> {
    return reads.map((read) => {
      if (!(read instanceof SqliteRead)) throw new Error("A read made by another database's statement");
      return read.run() as unknown[];
    }) as RowsOfEach<T>;
  }

  /** The query's first row, or undefined when there is none. */
  first<R>(query: Query<R>): R | undefined {
    const { sql, parameters } = this.compile(query);
    return this.prepare(sql).get(...parameters) as R | undefined;
  }

  /**
   * The query's rows one at a time (a large answer streamed, never one big array), from a statement
   * of its own: the shared cached one would stay busy while iterated. Consume it without other
   * statements on this connection in between (it holds a read cursor).
   */
  iterate<R>(query: Query<R>): IterableIterator<R> {
    const { sql, parameters } = this.compile(query);
    return this.raw.prepare<unknown[], R>(sql).iterate(...parameters);
  }

  /** Runs a change; answers how many rows it changed and the last inserted rowid. */
  run(query: Query<unknown>): RunResult {
    const { sql, parameters } = this.compile(query);
    return this.prepare(sql).run(...parameters);
  }

  /**
   * A statement run often (a loop over rows, a ledger write), compiled once per connection: `build`
   * (a function defined once, at module level: it is the cache key) receives one placeholder per
   * named value and the query builder, and puts the placeholders where the values go (one by one:
   * the placeholders object has no keys to spread); each run then binds that run's values in their
   * places without compiling anything.
   */
  prepared<P extends Record<string, unknown>, R>(build: (values: P, q: Kysely<Tables>) => Query<R>): PreparedQuery<P, R> {
    let prepared = this.preparedQueries.get(build) as PreparedQuery<P, R> | undefined;
    if (!prepared) {
      const { sql, bind } = compileWithPlaceholders(this, build);
      const statement = this.prepare(sql);
      prepared = {
        all: (values) => statement.all(...bind(values)) as R[],
        first: (values) => statement.get(...bind(values)) as R | undefined,
        run: (values) => statement.run(...bind(values)),
        allAsync: async (values) => statement.all(...bind(values)) as R[],
        withValues: (values) => new SqliteRead(() => statement.all(...bind(values)) as R[]),
      };
      this.preparedQueries.set(build, prepared);
    }
    return prepared;
  }

  /**
   * Runs `fn` in one IMMEDIATE transaction (a savepoint when nested); a throw rolls all of it back.
   * The outermost one writes the deferred batches last, before better-sqlite3 commits.
   */
  transaction<T>(fn: () => T, _options?: TransactionOptions): T {
    const mark = this.batches.mark();
    this.depth += 1;
    try {
      return this.raw
        .transaction(() => {
          const result = fn();
          if (this.depth === 1) for (const [batch, items] of this.batches.take()) batch.write(this, items);
          return result;
        })
        .immediate();
    } catch (error) {
      this.batches.rollbackTo(mark);
      throw error;
    } finally {
      this.depth -= 1;
    }
  }

  deferToCommit<T>(batch: CommitBatch<T, SyncDatabase<Tables>>, item: T): void {
    if (this.depth === 0) batch.write(this, [item]);
    else this.batches.add(batch, item);
  }

  /**
   * total_changes() (every row this connection ever inserted, updated or deleted, triggers included)
   * with PRAGMA data_version (bumped when another connection, such as the operator CLI, commits).
   */
  changeStamp(): string {
    const row = this.prepare(CHANGE_STAMP_SQL).get() as { changes: number; version: number };
    return `${row.changes}:${row.version}`;
  }

  close(): void {
    this.statements.clear();
    if (this.raw.open) this.raw.close();
  }
}
