// The PostgreSQL engine outlives its connection: a backend terminated under it (as a restart or a
// cut network would) is reported as DatabaseUnavailableError, never reconnected inside the
// transaction it killed, and replaced by the next statement outside one. A COMMIT cut off on its way
// reports its outcome as unknown (the HTTP layer says so, and to retry with the same key).
import { once } from 'node:events';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
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

  it("a connection libpq found cut is let go at once: the next sockets opened, given its socket's number, stay read", async () => {
    // libpq closes the socket of a connection it finds cut, in the call that finds it. The handle keeps
    // a libuv watcher on that number, and closing the handle later stops the kernel watching the
    // number: by then another socket may have it (in the outage tests a client's kept-alive HTTP
    // connection, never read again, reset by the keep-alive timer).
    const echo = createServer((socket) => socket.on('data', (data) => socket.write(data)));
    echo.listen(0, '127.0.0.1');
    await once(echo, 'listening');
    const { port } = echo.address() as AddressInfo;
    expect(() =>
      db.transaction(() => {
        db.query('SELECT 1');
        cut();
        db.query('SELECT 2');
      }),
    ).toThrow(DatabaseUnavailableError);
    // the lowest free numbers: the cut connection's among them
    const sockets: Socket[] = [];
    for (let i = 0; i < 4; i++) {
      const socket = connect(port, '127.0.0.1');
      await once(socket, 'connect');
      sockets.push(socket.setEncoding('latin1'));
    }
    try {
      // the next statement opens a new connection and lets the cut one go
      await vi.waitFor(() => db.query('SELECT 3 AS n'));
      const echoed: string[] = sockets.map(() => '');
      sockets.forEach((socket, i) => {
        socket.on('data', (data: string) => (echoed[i] += data));
        socket.write(`ping ${i}`);
      });
      // a socket whose number the kernel no longer watches never gets its echo
      await vi.waitFor(() => expect(echoed).toEqual(sockets.map((_, i) => `ping ${i}`)), { timeout: 3000 });
    } finally {
      for (const socket of sockets) socket.destroy();
      echo.close();
    }
  });
});
