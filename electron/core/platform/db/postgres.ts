// PostgreSQL as a second synchronous engine behind `SyncDatabase` (database.ts): libpq's synchronous
// API through pg-native, so the store code that runs on SQLite runs here unchanged. One main connection
// per process, one statement at a time; a statement holds the process as on SQLite (except reads sent
// with allAsync, which let it serve other requests meanwhile, on connections of their own:
// postgres-read-pool.ts), and concurrency comes from several processes on one database. A transaction is SERIALIZABLE and re-run (a bounded number
// of times) when PostgreSQL reports a serialization failure or a deadlock, so a check-then-write
// (availability, then a reservation) stays exact across processes without locking by hand.
//
// Values come back as SQLite's do: integers and numerics as numbers (refused beyond 2^53), booleans as
// 0/1, text as text. Raw SQL keeps SQLite's placeholders (`?`, `@name`); they are numbered here.
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
  compileWithPlaceholders,
  DatabaseBusyError,
  DatabaseTimeoutError,
  DatabaseUnavailableError,
  type PreparedQuery,
  type Query,
  type RunResult,
  type SyncDatabase,
  type SyncStatement,
  type TransactionOptions,
} from './database';
import { inlineParameters, PendingBatches, type CommitBatch } from './commit-batches';
import {
  connectionGone,
  connectionOptions,
  CONNECT_TIMEOUT_S,
  PostgresConnection,
  releaseClient,
  STATEMENT_GRACE_MS,
  type NativeClient,
} from './postgres-connection';
import { answeredInTime, runWithDeadline, StatementDeadlinePassed } from './postgres-timed';
import { ReadPool, type ReadFailure, type Rows } from './postgres-read-pool';
import { PostgresError, RETRYABLE, TIMED_OUT, UNIQUE_VIOLATION } from './postgres-errors';
import { numberPlaceholders, redactUrl, sent, toParameter } from './postgres-sql';
import { loadNativeClient, TYPES } from './postgres-native';
import { backOff, MAX_TRANSACTION_ATTEMPTS } from './postgres-transaction';

export { PostgresError } from './postgres-errors';
export { numberPlaceholders, redactUrl } from './postgres-sql';
export { MAX_TRANSACTION_ATTEMPTS } from './postgres-transaction';

/** One statement on the connection: run now (blocking) or sent to be answered later. */
interface NativeStatement {
  execute(values: unknown[]): { rows: Rows; changes: number };
  later(values: readonly unknown[]): Promise<Rows>;
}

export class PostgresDatabase<Tables> implements SyncDatabase<Tables> {
  readonly engine = 'postgres';
  readonly claimRows = ' FOR UPDATE SKIP LOCKED';
  readonly lockRows = ' FOR UPDATE';
  readonly q: Kysely<Tables>;
  private readonly connection: PostgresConnection;
  /** Behind a pooler in transaction mode (`pgbouncer=true`): unnamed statements only. */
  private readonly pooled: boolean;
  /** statement_timeout of the URL (ms): PostgreSQL's limit; the wait for an answer is a little longer. */
  private readonly statementTimeoutMs: number;
  /** SET LOCAL of the timeouts, sent with every BEGIN behind a pooler (where session settings are lost). */
  private readonly localTimeouts: string;
  private readonly statements = new Map<string, SyncStatement>();
  private readonly natives = new Map<string, NativeStatement>();
  /** Reads answered without blocking the process, on connections of their own (postgres-read-pool.ts). */
  readonly reads: ReadPool;
  private readonly preparedQueries = new WeakMap<object, PreparedQuery<never, unknown>>();
  private readonly batches = new PendingBatches<SyncDatabase<Tables>>();
  /** The statements sent with COMMIT, compiled once each (keyed by their `build`). */
  private readonly commitStatements = new WeakMap<object, { sql: string; bind: (values: Record<string, string | number>) => unknown[] }>();
  private nextStatement = 0;
  private depth = 0;
  /** Set when a statement of the running transaction failed retryably (even if the code caught it). */
  private mustRetry = false;
  /** Transactions re-run after a serialization failure or deadlock (for measurements). */
  retries = 0;

  constructor(readonly url: string) {
    const Client = loadNativeClient();
    const { libpqUrl, pooled, statementTimeoutMs, readConnections } = connectionOptions(url);
    this.pooled = pooled;
    this.statementTimeoutMs = statementTimeoutMs;
    const timeouts = ['statement_timeout', 'lock_timeout', 'idle_in_transaction_session_timeout'].map(
      (name) => `SET ${pooled ? 'LOCAL ' : ''}${name} = ${statementTimeoutMs}`,
    );
    this.localTimeouts = pooled ? `; ${timeouts.join('; ')}` : '';
    // Session settings (harmless when a pooler hands them to another client: nothing depends on
    // them); the timeouts only without a pooler, which would lose them (they go with BEGIN there).
    // Also the proof that the database answers: a frozen one fails the connect within its timeout.
    const settings = ["SET client_min_messages = warning; SET TIME ZONE 'UTC'", ...(pooled ? [] : timeouts)].join('; ');
    const open = (target: string): NativeClient => {
      const client = new Client({ types: TYPES });
      client.connectSync(target);
      try {
        runWithDeadline(client, () => client.pq.sendQuery(settings), CONNECT_TIMEOUT_S * 1000);
      } catch (error) {
        client.end();
        throw error;
      }
      return client;
    };
    /** The same without blocking: libpq's connect runs on libuv's thread pool, the settings are polled. */
    const openInBackground = async (target: string): Promise<NativeClient> => {
      const client = new Client({ types: TYPES });
      await new Promise<void>((resolve, reject) => client.connect(target, (error?: Error) => (error ? reject(error) : resolve())));
      try {
        await answeredInTime(client, settings, CONNECT_TIMEOUT_S * 1000);
      } catch (error) {
        client.end();
        throw error;
      }
      return client;
    };
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
      failure: (error, client) => this.readFailure(error, client),
      log: (line) => process.stderr.write(`${line}\n`),
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

  /** The connection's client, reconnected first if it broke and no transaction is open. */
  private get client(): NativeClient {
    return this.connection.ready(this.depth > 0);
  }

  /** Runs one command on `client` (sent by `send`), waiting no longer than the statement timeout allows. */
  private timed(client: NativeClient, send: (pq: NativeClient['pq']) => boolean): Record<string, unknown>[] {
    return runWithDeadline(client, () => send(client.pq), this.statementTimeoutMs + STATEMENT_GRACE_MS);
  }

  /** What a failed read on a read connection reports (as fail() for the main one), and whether it was cut. */
  private readFailure(error: unknown, client: NativeClient): ReadFailure {
    if (error instanceof StatementDeadlinePassed)
      return { reported: new DatabaseTimeoutError(error.timeoutMs, { cause: error }), cut: false };
    const fields = client.pq.resultErrorFields();
    if (connectionGone(client.pq, fields?.sqlState)) return { reported: new DatabaseUnavailableError(false, { cause: error }), cut: true };
    const code = fields?.sqlState ?? 'XX000';
    if (TIMED_OUT.has(code)) return { reported: new DatabaseTimeoutError(this.statementTimeoutMs, { cause: error }), cut: false };
    const message = fields?.messagePrimary ?? String((error as Error).message).trim();
    return { reported: new PostgresError(message, code, { cause: error }), cut: false };
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
    if (this.depth > 0 && RETRYABLE.has(code)) this.mustRetry = true;
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
      if (!cutNow || this.depth > 0 || !/^\s*(SELECT|BEGIN)\b/i.test(text)) throw error;
      return run();
    }
  }

  /** Runs one statement in PostgreSQL's own `$n` form. */
  query(sql: string, values: unknown[] = []): Record<string, unknown>[] {
    return this.compiled(sql, values.length).all(...values) as Record<string, unknown>[];
  }

  private native(text: string, count: number): NativeStatement {
    const name = `s${++this.nextStatement}`;
    // prepared on the connection of this generation; a reconnect (a new session) prepares it again
    let preparedIn = -1;
    const preparedOnReads = new WeakSet<NativeClient>();
    const prepareOn = (client: NativeClient): void => {
      if (!this.pooled && preparedIn !== this.connection.generation) {
        this.timed(client, (pq) => pq.sendPrepare(name, text, count));
        preparedIn = this.connection.generation;
      }
    };
    /** The client to execute on (reconnected first if it must be), with the statement prepared on it. */
    const prepared = (): NativeClient => {
      const client = this.client;
      prepareOn(client);
      return client;
    };
    const send = (pq: NativeClient['pq'], values: readonly unknown[]): boolean => {
      const bound = values.map(toParameter);
      return this.pooled ? pq.sendQueryParams(text, bound) : pq.sendQueryPrepared(name, bound);
    };
    this.againIfCut(text, () => {
      try {
        prepared();
      } catch (error) {
        this.fail(error);
      }
    });
    return {
      execute: (values) =>
        this.againIfCut(text, () => {
          try {
            const client = prepared();
            const rows = this.timed(client, (pq) => send(pq, values));
            return { rows, changes: Number(client.pq.cmdTuples() || 0) };
          } catch (error) {
            return this.fail(error);
          }
        }),
      later: (values) =>
        this.reads.run({
          // prepared once on each read connection, in a round trip of its own at its first use there
          prepare: this.pooled
            ? undefined
            : (client) => !preparedOnReads.has(client) && sent(client, client.pq.sendPrepare(name, text, count)),
          preparedOn: (client) => preparedOnReads.add(client),
          send: (client) => send(client.pq, values),
        }),
    };
  }

  private statement(key: string, text: string, names: string[], count: number): SyncStatement {
    let statement = this.statements.get(key);
    if (!statement) {
      const native = this.native(text, count);
      this.natives.set(key, native);
      const bind = (values: unknown[]): unknown[] => {
        if (names.length === 0) return values;
        const named = (values[0] ?? {}) as Record<string, unknown>;
        return names.map((n) => named[n] ?? null);
      };
      statement = {
        all: (...values) => native.execute(bind(values)).rows,
        get: (...values) => native.execute(bind(values)).rows[0],
        run: (...values): RunResult => {
          const changes = native.execute(bind(values)).changes;
          const lastInsertRowid = (): number => this.lastInsertId();
          return {
            changes,
            // read right after the insert, as callers do: the identity value it took (lastval())
            get lastInsertRowid() {
              return lastInsertRowid();
            },
          };
        },
      };
      this.statements.set(key, statement);
    }
    return statement;
  }

  /** A cached prepared statement for raw SQL written with SQLite's placeholders. */
  prepare(sql: string): SyncStatement {
    const cached = this.statements.get(sql);
    if (cached) return cached;
    const { text, names, count } = numberPlaceholders(sql);
    return this.statement(sql, text, names, count);
  }

  private compiled(sql: string, count: number): SyncStatement {
    return this.statement(`compiled:${sql}`, sql, [], count);
  }

  /** Sends a compiled statement to be answered without blocking the process (outside any transaction). */
  private async later(sql: string, values: readonly unknown[]): Promise<Rows> {
    if (this.depth > 0) throw new Error('A read that does not block cannot run inside a transaction');
    this.compiled(sql, values.length);
    return this.natives.get(`compiled:${sql}`)!.later(values);
  }

  allAsync<R>(query: Query<R>): Promise<R[]> {
    const { sql, parameters } = this.compile(query);
    return this.later(sql, parameters) as Promise<R[]>;
  }

  compile<R>(query: Query<R>): CompiledQuery<R> {
    return 'isRawBuilder' in query ? query.compile(this.q) : query.compile();
  }

  all<R>(query: Query<R>): R[] {
    const { sql, parameters } = this.compile(query);
    return this.compiled(sql, parameters.length).all(...parameters) as R[];
  }

  first<R>(query: Query<R>): R | undefined {
    const { sql, parameters } = this.compile(query);
    return this.compiled(sql, parameters.length).get(...parameters) as R | undefined;
  }

  run(query: Query<unknown>): RunResult {
    const { sql, parameters } = this.compile(query);
    return this.compiled(sql, parameters.length).run(...parameters);
  }

  prepared<P extends Record<string, unknown>, R>(build: (values: P, q: Kysely<Tables>) => Query<R>): PreparedQuery<P, R> {
    let prepared = this.preparedQueries.get(build) as PreparedQuery<P, R> | undefined;
    if (!prepared) {
      const { sql, bind } = compileWithPlaceholders(this, build);
      let statement: SyncStatement | undefined;
      const later = (values: P) => this.later(sql, bind(values)) as Promise<R[]>;
      const get = (values: P): { statement: SyncStatement; values: unknown[] } => {
        const bound = bind(values);
        statement ??= this.compiled(sql, bound.length);
        return { statement, values: bound };
      };
      prepared = {
        all: (values) => {
          const s = get(values);
          return s.statement.all(...s.values) as R[];
        },
        first: (values) => {
          const s = get(values);
          return s.statement.get(...s.values) as R | undefined;
        },
        run: (values) => {
          const s = get(values);
          return s.statement.run(...s.values);
        },
        allAsync: later,
      };
      this.preparedQueries.set(build, prepared);
    }
    return prepared;
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
  transaction<T>(fn: () => T, options?: TransactionOptions): T {
    if (this.depth > 0) return this.savepoint(fn);
    for (let attempt = 1; ; attempt++) {
      this.mustRetry = false;
      this.batches.clear();
      this.exec(`BEGIN ISOLATION LEVEL ${options?.rowLocks ? 'READ COMMITTED' : 'SERIALIZABLE'}${this.localTimeouts}`);
      this.depth = 1;
      try {
        const result = fn();
        const withCommit = this.writeBatches();
        // a failed statement that the code caught leaves the transaction aborted: COMMIT would
        // silently roll back, so it is a failure here
        const status = this.connection.client.pq.transactionStatus();
        // the connection broke under a statement the code caught: the transaction is gone
        if (status === 4 && this.connection.lost(undefined)) throw new DatabaseUnavailableError(false);
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
    if (this.depth === 0) batch.write(this, [item]);
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
        batch.write(this, items);
        continue;
      }
      let compiled = this.commitStatements.get(statement.build);
      if (!compiled) {
        compiled = compileWithPlaceholders(this, statement.build);
        this.commitStatements.set(statement.build, compiled);
      }
      const escape = (text: string): string => {
        // node-libpq hands an empty string back unquoted, and a failure as null
        const quoted: unknown = text === '' ? "''" : this.connection.client.pq.escapeLiteral(text);
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
    const client = this.connection.client;
    // a COMMIT that failed (a serialization failure found at commit) has already ended it; a broken
    // (or abandoned) connection took the transaction with it
    const status = client.pq.transactionStatus();
    if (status === 0 || status === 4 || this.connection.isBroken) return;
    try {
      this.timed(client, (pq) => pq.sendQuery('ROLLBACK'));
    } catch {
      // the connection is gone or no transaction is open: nothing to undo
    }
  }

  /**
   * SQLite's last_insert_rowid(): the identity value the last INSERT took (PostgreSQL's lastval(), the
   * value this connection last drew from any sequence; a trigger that inserts into a table without an
   * identity, as the ledger's balances, does not change it). Read it only after inserting into a
   * table with an identity: before any, PostgreSQL refuses (and that fails the transaction).
   */
  private lastInsertId(): number {
    return Number(this.query('SELECT lastval() AS id')[0]!.id);
  }

  /** Changes whenever any transaction that wrote (in any process) started or ended. */
  changeStamp(): string {
    return String(this.query('SELECT pg_current_snapshot()::text AS s')[0]!.s);
  }

  close(): void {
    this.reads.close();
    this.statements.clear();
    this.natives.clear();
    this.connection.close();
  }
}
