// PostgreSQL as a second synchronous engine behind `SyncDatabase` (database.ts): libpq's synchronous
// API through pg-native, so the store code that runs on SQLite runs here unchanged. One main connection
// per process, one statement at a time; a statement holds the process as on SQLite (except reads sent
// with allAsync, which let it serve other requests meanwhile, on connections of their own:
// postgres-read-pool.ts; several sent together with allAsyncTogether cost one round trip), and concurrency comes from several processes on one database. A transaction
// is SERIALIZABLE and re-run (a bounded number of times) when PostgreSQL reports a serialization
// failure or a deadlock, so a check-then-write (availability, then a reservation) stays exact across
// processes without locking by hand (postgres-transaction.ts).
//
// Values come back as SQLite's do: integers and numerics as numbers (refused beyond 2^53), booleans as
// 0/1, text as text (postgres-native.ts). Raw SQL keeps SQLite's placeholders (`?`, `@name`); they are
// numbered in postgres-sql.ts, and each statement is prepared once per connection
// (postgres-statements.ts). This module holds the main connection: its errors, its reconnects.
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type CompiledQuery,
  type Kysely as KyselyType,
} from 'kysely';
import {
  DatabaseTimeoutError,
  DatabaseUnavailableError,
  type BoundRead,
  type PreparedQuery,
  type Query,
  type RowsOfEach,
  type RunResult,
  type SyncDatabase,
  type SyncStatement,
  type TransactionOptions,
} from './database';
import type { CommitBatch } from './commit-batches';
import {
  connectionOptions,
  foregroundConnectMs,
  PostgresConnection,
  releaseClient,
  STATEMENT_GRACE_MS,
  type NativeClient,
} from './postgres-connection';
import { runWithDeadline, StatementDeadlinePassed } from './postgres-timed';
import { ReadPool } from './postgres-read-pool';
import { PostgresError, readFailure, RETRYABLE, TIMED_OUT } from './postgres-errors';
import { redactUrl } from './postgres-sql';
import { nativeOpeners } from './postgres-native';
import { PostgresTransactions } from './postgres-transaction';
import { PostgresStatements } from './postgres-statements';
import type { ResultRows } from './postgres-rows';

export { PostgresError } from './postgres-errors';
export { numberPlaceholders, redactUrl } from './postgres-sql';
export { MAX_TRANSACTION_ATTEMPTS } from './postgres-transaction';

export class PostgresDatabase<Tables> implements SyncDatabase<Tables> {
  readonly engine = 'postgres';
  readonly claimRows = ' FOR UPDATE SKIP LOCKED';
  readonly lockRows = ' FOR UPDATE';
  readonly q: Kysely<Tables>;
  private readonly connection: PostgresConnection;
  /** statement_timeout of the URL (ms): PostgreSQL's limit; the wait for an answer is a little longer. */
  private readonly statementTimeoutMs: number;
  /**
   * A statement on the main connection waits synchronously for its answer, up to its deadline (the
   * statement timeout and its grace), after a connect in the foreground when the connection was cut.
   */
  readonly longestHoldMs: number;
  /** Reads answered without blocking the process, on connections of their own (postgres-read-pool.ts). */
  readonly reads: ReadPool;
  private readonly statements: PostgresStatements<Tables>;
  private readonly transactions: PostgresTransactions<Tables>;

  constructor(readonly url: string) {
    const { libpqUrl, pooled, statementTimeoutMs, readConnections } = connectionOptions(url);
    this.statementTimeoutMs = statementTimeoutMs;
    this.longestHoldMs = foregroundConnectMs(libpqUrl) + statementTimeoutMs + STATEMENT_GRACE_MS;
    const timeouts = ['statement_timeout', 'lock_timeout', 'idle_in_transaction_session_timeout'].map(
      (name) => `SET ${pooled ? 'LOCAL ' : ''}${name} = ${statementTimeoutMs}`,
    );
    // Session settings (harmless when a pooler hands them to another client: nothing depends on
    // them); the timeouts only without a pooler, which would lose them (they go with BEGIN there).
    const settings = ["SET client_min_messages = warning; SET TIME ZONE 'UTC'", ...(pooled ? [] : timeouts)].join('; ');
    const { open, openInBackground } = nativeOpeners(settings);
    try {
      this.connection = new PostgresConnection(libpqUrl, open, undefined, openInBackground);
    } catch (error) {
      throw new Error(`Cannot connect to PostgreSQL at ${redactUrl(url)}: ${String((error as Error).message).trim()}`, { cause: error });
    }
    this.reads = new ReadPool({
      size: readConnections,
      timeoutMs: this.statementTimeoutMs + STATEMENT_GRACE_MS,
      open: () => openInBackground(libpqUrl),
      release: releaseClient,
      failure: (error, client) => readFailure(error, client, this.statementTimeoutMs),
      notAnswering: () => this.connection.notAnswering(this.statementTimeoutMs + STATEMENT_GRACE_MS),
      log: (line) => process.stderr.write(`${line}\n`),
    });
    const timed = this.timed.bind(this);
    this.transactions = new PostgresTransactions<Tables>({
      db: this,
      connection: this.connection,
      localTimeouts: pooled ? `; ${timeouts.join('; ')}` : '',
      timed,
    });
    this.statements = new PostgresStatements<Tables>({
      db: this,
      connection: this.connection,
      pooled,
      reads: this.reads,
      client: () => this.client,
      timed,
      fail: (error) => this.fail(error),
      againIfCut: (text, run) => this.againIfCut(text, run),
      inTransaction: () => this.transactions.depth > 0,
    });
    this.q = new Kysely<Tables>({
      dialect: {
        createAdapter: () => new PostgresAdapter(),
        createDriver: () => new DummyDriver(),
        createIntrospector: (db: KyselyType<unknown>) => new PostgresIntrospector(db),
        createQueryCompiler: () => new PostgresQueryCompiler(),
      },
    });
  }

  /** Transactions re-run after a serialization failure or deadlock (for measurements). */
  get retries(): number {
    return this.transactions.retries;
  }

  /** The connection's client, reconnected first if it broke and no transaction is open. */
  private get client(): NativeClient {
    return this.connection.ready(this.transactions.depth > 0);
  }

  /** Runs one command on `client` (sent by `send`), waiting no longer than the statement timeout allows. */
  private timed(client: NativeClient, send: (pq: NativeClient['pq']) => boolean, reader?: ResultRows): Record<string, unknown>[] {
    return runWithDeadline(client, () => send(client.pq), this.statementTimeoutMs + STATEMENT_GRACE_MS, reader);
  }

  private fail(error: unknown): never {
    if (error instanceof DatabaseUnavailableError) throw error;
    if (error instanceof StatementDeadlinePassed) {
      this.connection.abandon(error.timeoutMs);
      this.reads.stoppedAnswering();
      throw new DatabaseTimeoutError(error.timeoutMs, { cause: error });
    }
    const fields = this.connection.client.pq.resultErrorFields();
    if (this.connection.lost(fields?.sqlState)) throw new DatabaseUnavailableError(false, { cause: error });
    const code = fields?.sqlState ?? 'XX000';
    if (TIMED_OUT.has(code)) throw new DatabaseTimeoutError(this.statementTimeoutMs, { cause: error });
    if (this.transactions.depth > 0 && RETRYABLE.has(code)) this.transactions.mustRetry = true;
    const message = fields?.messagePrimary ?? String((error as Error).message).trim();
    throw new PostgresError(message, code, { cause: error });
  }

  /** Runs SQL text without parameters (several statements allowed): DDL, transaction control. */
  exec(sql: string): void {
    this.againIfCut(sql, () => {
      try {
        this.timed(this.client, (pq) => pq.sendQuery(sql));
      } catch (error) {
        this.fail(error);
      }
    });
  }

  /**
   * Runs `run`, and once more on a new connection when the one it ran on turned out to be cut (a
   * database restarted while this process was idle) and the statement can have had no effect: a
   * SELECT or a BEGIN outside any transaction. Then a restart costs no request its answer.
   */
  private againIfCut<T>(text: string, run: () => T): T {
    const generation = this.connection.generation;
    try {
      return run();
    } catch (error) {
      const cutNow =
        error instanceof DatabaseUnavailableError && !(error instanceof DatabaseTimeoutError) && this.connection.lostAt === generation;
      if (!cutNow || this.transactions.depth > 0 || !/^\s*(SELECT|BEGIN)\b/i.test(text)) throw error;
      return run();
    }
  }

  /** Runs one statement in PostgreSQL's own `$n` form. */
  query(sql: string, values: unknown[] = []): Record<string, unknown>[] {
    return this.statements.compiled(sql, values.length).all(...values) as Record<string, unknown>[];
  }

  /** A cached prepared statement for raw SQL written with SQLite's placeholders. */
  prepare(sql: string): SyncStatement {
    return this.statements.prepare(sql);
  }

  allAsync<R>(query: Query<R>): Promise<R[]> {
    const { sql, parameters } = this.compile(query);
    return this.statements.later(sql, parameters) as Promise<R[]>;
  }

  allAsyncTogether<T extends unknown[]>(...reads: { [K in keyof T]: BoundRead<T[K]> }): Promise<RowsOfEach<T>> {
    return this.statements.together(reads) as Promise<RowsOfEach<T>>;
  }

  compile<R>(query: Query<R>): CompiledQuery<R> {
    return 'isRawBuilder' in query ? query.compile(this.q) : query.compile();
  }

  all<R>(query: Query<R>): R[] {
    const { sql, parameters } = this.compile(query);
    return this.statements.compiled(sql, parameters.length).all(...parameters) as R[];
  }

  first<R>(query: Query<R>): R | undefined {
    const { sql, parameters } = this.compile(query);
    return this.statements.compiled(sql, parameters.length).get(...parameters) as R | undefined;
  }

  run(query: Query<unknown>): RunResult {
    const { sql, parameters } = this.compile(query);
    return this.statements.compiled(sql, parameters.length).run(...parameters);
  }

  prepared<P extends Record<string, unknown>, R>(build: (values: P, q: Kysely<Tables>) => Query<R>): PreparedQuery<P, R> {
    return this.statements.prepared(build);
  }

  /** One transaction: see PostgresTransactions.run (postgres-transaction.ts). */
  transaction<T>(fn: () => T, options?: TransactionOptions): T {
    return this.transactions.run(fn, options);
  }

  deferToCommit<T>(batch: CommitBatch<T, SyncDatabase<Tables>>, item: T): void {
    this.transactions.deferToCommit(batch, item);
  }

  /** Changes whenever any transaction that wrote (in any process) started or ended. */
  changeStamp(): string {
    return String(this.query('SELECT pg_current_snapshot()::text AS s')[0]!.s);
  }

  close(): void {
    this.reads.close();
    this.statements.clear();
    this.connection.close();
  }
}
