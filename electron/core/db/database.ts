// SQLite through better-sqlite3, with kysely as the typed query builder only. Queries are compiled
// by kysely and executed synchronously by better-sqlite3: a multi-row change is one synchronous
// `transaction()`, so no other request can interleave with it on the event loop, and prepared
// statements are cached by their SQL.
import BetterSqlite3 from 'better-sqlite3';
import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, type Compilable } from 'kysely';

export type RawDatabase = BetterSqlite3.Database;

export class SqliteDatabase<Schema> {
  /** Builds queries; never executes them (its driver is a dummy). */
  readonly q: Kysely<Schema>;
  private readonly statements = new Map<string, BetterSqlite3.Statement>();

  constructor(readonly raw: RawDatabase) {
    this.q = new Kysely<Schema>({
      dialect: {
        createAdapter: () => new SqliteAdapter(),
        createDriver: () => new DummyDriver(),
        createIntrospector: (db) => new SqliteIntrospector(db),
        createQueryCompiler: () => new SqliteQueryCompiler(),
      },
    });
  }

  /** A cached prepared statement for raw SQL (hot paths and aggregates kysely would only obscure). */
  prepare(sql: string): BetterSqlite3.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.raw.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  all<R>(query: Compilable<R>): R[] {
    const { sql, parameters } = query.compile();
    return this.prepare(sql).all(...(parameters as unknown[])) as R[];
  }

  first<R>(query: Compilable<R>): R | undefined {
    const { sql, parameters } = query.compile();
    return this.prepare(sql).get(...(parameters as unknown[])) as R | undefined;
  }

  run(query: Compilable<unknown>): BetterSqlite3.RunResult {
    const { sql, parameters } = query.compile();
    return this.prepare(sql).run(...(parameters as unknown[]));
  }

  /** Runs `fn` in one IMMEDIATE transaction (a savepoint when nested); a throw rolls all of it back. */
  transaction<T>(fn: () => T): T {
    return this.raw.transaction(fn).immediate();
  }

  close(): void {
    this.statements.clear();
    if (this.raw.open) this.raw.close();
  }
}
