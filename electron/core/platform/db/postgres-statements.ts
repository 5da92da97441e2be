// The statement cache of a PostgreSQL database: each SQL text prepared once per connection (named
// statements, or unnamed ones behind a pooler), run blocking on the main connection or sent to the
// read pool, with SQLite's placeholders bound by position or by name.
import {
  compileWithPlaceholders,
  type BoundRead,
  type PreparedQuery,
  type Query,
  type RunResult,
  type SyncDatabase,
  type SyncStatement,
} from './database';
import type { Kysely } from 'kysely';
import type { NativeClient, PostgresConnection } from './postgres-connection';
import type { ReadPool } from './postgres-read-pool';
import type { ReadStatement, Rows } from './postgres-read-types';
import { numberPlaceholders, sent, toParameter } from './postgres-sql';
import { ResultRows } from './postgres-rows';

/** One statement: run now on the main connection (blocking), or made a read for the read pool. */
interface NativeStatement {
  execute(values: unknown[]): { rows: Rows; changes: number };
  read(values: readonly unknown[]): ReadStatement;
}

/** PostgreSQL's BoundRead: the statement as the read pool sends it, with its values. */
class PostgresRead<R> implements BoundRead<R> {
  readonly engine = 'postgres';
  constructor(readonly part: ReadStatement) {}
}

const onlyRows = (rows: Rows[]): Rows => rows[0]!;
const everyRows = (rows: Rows[]): Rows[] => rows;
const refusedInTransaction = () => new Error('A read that does not block cannot run inside a transaction');

/** What the statements need of the database they run on. */
export interface StatementHost<Tables> {
  readonly db: SyncDatabase<Tables> & { query(sql: string): Record<string, unknown>[] };
  readonly connection: PostgresConnection;
  /** Behind a pooler in transaction mode (`pgbouncer=true`): unnamed statements only. */
  readonly pooled: boolean;
  readonly reads: ReadPool;
  /** The connection's client, reconnected first if it broke and no transaction is open. */
  client(): NativeClient;
  timed(client: NativeClient, send: (pq: NativeClient['pq']) => boolean, reader?: ResultRows): Record<string, unknown>[];
  fail(error: unknown): never;
  againIfCut<T>(text: string, run: () => T): T;
  /** Whether a transaction is open (a read that does not block cannot run inside one). */
  inTransaction(): boolean;
}

export class PostgresStatements<Tables> {
  private readonly statements = new Map<string, SyncStatement>();
  private readonly natives = new Map<string, NativeStatement>();
  private readonly preparedQueries = new WeakMap<object, PreparedQuery<never, unknown>>();
  private nextStatement = 0;

  constructor(private readonly host: StatementHost<Tables>) {}

  private native(text: string, count: number): NativeStatement {
    const host = this.host;
    const name = `s${++this.nextStatement}`;
    // prepared on the connection of this generation; a reconnect (a new session) prepares it again
    let preparedIn = -1;
    const preparedOnReads = new WeakSet<NativeClient>();
    const reader = new ResultRows();
    /**
     * The client to execute on (reconnected first if it must be), with the statement prepared on it:
     * at its first run there, never ahead. One only ever read through the read pool is never prepared
     * on the main connection, which would hold the process for a round trip at the first read.
     */
    const prepared = (): NativeClient => {
      const client = host.client();
      if (!host.pooled && preparedIn !== host.connection.generation) {
        host.timed(client, (pq) => pq.sendPrepare(name, text, count));
        preparedIn = host.connection.generation;
      }
      return client;
    };
    const send = (pq: NativeClient['pq'], values: readonly unknown[]): boolean => {
      const bound = values.map(toParameter);
      return host.pooled ? pq.sendQueryParams(text, bound) : pq.sendQueryPrepared(name, bound);
    };
    // what a read of this statement needs on a read connection besides its values (made once)
    const onReads = {
      // prepared once on each read connection: at its first use there, in the same pipeline
      prepare: host.pooled
        ? undefined
        : (client: NativeClient) => {
            if (preparedOnReads.has(client)) return false;
            sent(client, client.pq.sendPrepare(name, text, count));
            preparedOnReads.add(client);
            return true;
          },
      unprepared: (client: NativeClient) => void preparedOnReads.delete(client),
      reader,
    };
    return {
      execute: (values) =>
        host.againIfCut(text, () => {
          try {
            const client = prepared();
            const rows = host.timed(client, (pq) => send(pq, values), reader);
            return { rows, changes: Number(client.pq.cmdTuples() || 0) };
          } catch (error) {
            return host.fail(error);
          }
        }),
      read: (values) => ({ ...onReads, send: (client) => send(client.pq, values) }),
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

  /** A cached prepared statement for SQL in PostgreSQL's own `$n` form. */
  compiled(sql: string, count: number): SyncStatement {
    return this.statement(`compiled:${sql}`, sql, [], count);
  }

  /** Sends a compiled statement to be answered without blocking the process (outside any transaction). */
  async later(sql: string, values: readonly unknown[]): Promise<Rows> {
    if (this.host.inTransaction()) throw refusedInTransaction();
    return this.host.reads.run([this.nativeOf(sql, values.length).read(values)], onlyRows);
  }

  /** Sends reads made by withValues together, in one round trip (outside any transaction). */
  together(reads: readonly BoundRead<unknown>[]): Promise<Rows[]> {
    try {
      if (this.host.inTransaction()) throw refusedInTransaction();
      const parts = reads.map((read) => {
        if (!(read instanceof PostgresRead)) throw new Error("A read made by another database's statement");
        return read.part;
      });
      return this.host.reads.run(parts, everyRows);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** The native statement of SQL in PostgreSQL's form (made at its first use). */
  private nativeOf(sql: string, count: number): NativeStatement {
    this.compiled(sql, count);
    return this.natives.get(`compiled:${sql}`)!;
  }

  prepared<P extends Record<string, unknown>, R>(build: (values: P, q: Kysely<Tables>) => Query<R>): PreparedQuery<P, R> {
    let prepared = this.preparedQueries.get(build) as PreparedQuery<P, R> | undefined;
    if (!prepared) {
      const { sql, bind } = compileWithPlaceholders(this.host.db, build);
      let statement: SyncStatement | undefined;
      // the statement looked up once: its key is the whole SQL text, costly to build and hash per read
      let native: NativeStatement | undefined;
      const read = (values: P): PostgresRead<R> => {
        const bound = bind(values);
        native ??= this.nativeOf(sql, bound.length);
        return new PostgresRead(native.read(bound));
      };
      // the pool's promise itself, not one more async layer (a promise and its turns on every read);
      // what fails before the read is sent is a rejection all the same
      const later = (values: P): Promise<R[]> => {
        try {
          if (this.host.inTransaction()) throw refusedInTransaction();
          return this.host.reads.run([read(values).part], onlyRows) as Promise<R[]>;
        } catch (error) {
          return Promise.reject(error instanceof Error ? error : new Error(String(error)));
        }
      };
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
        withValues: read,
      };
      this.preparedQueries.set(build, prepared);
    }
    return prepared;
  }

  /**
   * SQLite's last_insert_rowid(): the identity value the last INSERT took (PostgreSQL's lastval(), the
   * value this connection last drew from any sequence; a trigger that inserts into a table without an
   * identity, as the ledger's balances, does not change it). Read it only after inserting into a
   * table with an identity: before any, PostgreSQL refuses (and that fails the transaction).
   */
  private lastInsertId(): number {
    return Number(this.host.db.query('SELECT lastval() AS id')[0]!.id);
  }

  clear(): void {
    this.statements.clear();
    this.natives.clear();
  }
}
