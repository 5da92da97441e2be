// The PostgreSQL engine outlives its connection: a backend terminated under it (as a restart or a
// cut network would) is reported as DatabaseUnavailableError, never reconnected inside the
// transaction it killed, and replaced by the next statement outside one. A COMMIT cut off on its way
// reports its outcome as unknown (the HTTP layer says so, and to retry with the same key).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseUnavailableError } from '@platform/db/database';
import { PostgresDatabase } from '@platform/db/postgres';
import { connectionOptions } from '@platform/db/postgres-connection';
import { createTestDatabase, type TestDatabase } from '@test/support/postgres';
import { ON_POSTGRES } from '@test/support/registry';

describe('connectionOptions', () => {
  it('takes pgbouncer=true, statement_timeout and read_connections out of the URL libpq sees, and adds a connect timeout unless one is given', () => {
    expect(connectionOptions('postgres://u@h:1/db?pgbouncer=true')).toEqual({
      libpqUrl: 'postgres://u@h:1/db?connect_timeout=2',
      pooled: true,
      statementTimeoutMs: 5000,
      readConnections: 4,
    });
    expect(connectionOptions('postgres://u@h:1/db?pgbouncer=true&dbname=x')).toEqual({
      libpqUrl: 'postgres://u@h:1/db?dbname=x&connect_timeout=2',
      pooled: true,
      statementTimeoutMs: 5000,
      readConnections: 4,
    });
    expect(connectionOptions('postgres://u@h:1/db?connect_timeout=2')).toEqual({
      libpqUrl: 'postgres://u@h:1/db?connect_timeout=2',
      pooled: false,
      statementTimeoutMs: 5000,
      readConnections: 4,
    });
    expect(connectionOptions('postgres://u@h:1/db?statement_timeout=1500&pgbouncer=true')).toEqual({
      libpqUrl: 'postgres://u@h:1/db?connect_timeout=2',
      pooled: true,
      statementTimeoutMs: 1500,
      readConnections: 4,
    });
    expect(connectionOptions('postgres://u@h:1/db?read_connections=12&dbname=x')).toEqual({
      libpqUrl: 'postgres://u@h:1/db?dbname=x&connect_timeout=2',
      pooled: false,
      statementTimeoutMs: 5000,
      readConnections: 12,
    });
    for (const bad of ['0', '65', '2.5', 'many']) {
      expect(() => connectionOptions(`postgres://u@h:1/db?read_connections=${bad}`)).toThrow(
        new RegExp(`read_connections .* from 1 to 64, not ${bad}`),
      );
    }
    expect(() => connectionOptions('postgres://u@h:1/db?statement_timeout=soon')).toThrow(/statement_timeout .* milliseconds, not soon/);
  });
});

describe.skipIf(!ON_POSTGRES)('a PostgreSQL connection cut under the engine', () => {
  let database: TestDatabase;
  let db: PostgresDatabase<unknown>;
  let other: PostgresDatabase<unknown>;
  const rows = () => Number(other.query('SELECT COUNT(*) AS n FROM t')[0]!.n);
  /** Terminates the backend running `db`'s open transaction, and waits until it is gone. */
  const cut = () => {
    const pid = db.query('SELECT pg_backend_pid() AS pid')[0]!.pid;
    other.query('SELECT pg_terminate_backend($1, 5000)', [pid]);
  };

  beforeAll(() => {
    database = createTestDatabase('registry_reconnect');
    db = new PostgresDatabase(database.url);
    other = new PostgresDatabase(database.url);
    db.exec('CREATE TABLE t (id integer)');
  });
  afterAll(() => {
    db?.close();
    other?.close();
    database?.drop();
  });

  it('a COMMIT that cannot reach the database: outcome unknown; the next statement reconnects', () => {
    let thrown: unknown;
    try {
      db.transaction(() => {
        db.query('INSERT INTO t VALUES (1)');
        cut();
      });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(DatabaseUnavailableError);
    expect((thrown as DatabaseUnavailableError).outcomeUnknown).toBe(true);
    expect((thrown as Error).message).toMatch(/cannot tell whether the change was made.*same Idempotency-Key/);
    expect(rows()).toBe(0);
    db.transaction(() => db.query('INSERT INTO t VALUES (2)'));
    expect(rows()).toBe(1);
  });

  it('a statement inside the transaction that lost its connection fails; it never runs elsewhere', () => {
    expect(() =>
      db.transaction(() => {
        db.query('INSERT INTO t VALUES (3)');
        cut();
        db.query('INSERT INTO t VALUES (4)');
      }),
    ).toThrow(DatabaseUnavailableError);
    expect(other.query('SELECT id FROM t ORDER BY id')).toEqual([{ id: 2 }]);
    expect(db.query('SELECT COUNT(*) AS n FROM t')).toEqual([{ n: 1 }]);
  });
});
