// Reads that do not hold the process (SyncDatabase.allAsync, postgres-async-reads.ts): while
// PostgreSQL answers one, the process goes on (here: releases the lock the read waits on, which a
// blocking read would never let it do); reads and synchronous statements share the one connection
// in order; a failed read is reported as a synchronous statement's failure is, and a read whose
// connection was cut under it runs once more on a new connection.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DatabaseTimeoutError } from '@platform/db/database';
import { PostgresDatabase, PostgresError } from '@platform/db/postgres';
import { createTestDatabase, POSTGRES_URL, type TestDatabase } from '@test/support/postgres';
import { ON_POSTGRES } from '@test/support/registry';

const THROUGH_POOLER = /[?&]pgbouncer=true(&|$)/.test(POSTGRES_URL);

/** Whether `promise` is still pending after the event loop has turned a few times. */
async function pending(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
  return !settled;
}

describe.skipIf(!ON_POSTGRES)('reads that do not hold the process, on PostgreSQL', () => {
  let database: TestDatabase;
  let db: PostgresDatabase<unknown>;
  let other: PostgresDatabase<unknown>;
  /** `other` holds transaction-scoped advisory lock `key` until release() (a pooler keeps its server for it). */
  const hold = (key: number) => {
    other.exec(`BEGIN; SELECT pg_advisory_xact_lock(${key})`);
    return () => other.exec('COMMIT');
  };

  beforeAll(() => {
    database = createTestDatabase('registry_async_reads');
    db = new PostgresDatabase(database.url);
    other = new PostgresDatabase(database.url);
    db.exec('CREATE TABLE t (id integer)');
  });
  afterAll(() => {
    db?.close();
    other?.close();
    database?.drop();
  });

  it('the process goes on while the database answers; the read gets its rows once it is answered', async () => {
    const release = hold(41);
    const read = db.allAsync(sql<{ n: number }>`SELECT 7 AS n FROM pg_advisory_xact_lock(41)`);
    expect(await pending(read)).toBe(true);
    release();
    expect(await read).toEqual([{ n: 7 }]);
  });

  it('reads and synchronous statements take turns on the connection, in the order they were asked', async () => {
    const first = db.allAsync(sql<{ n: number }>`SELECT COUNT(*)::int AS n FROM t`);
    const second = db.allAsync(sql<{ n: number }>`SELECT COUNT(*)::int AS n FROM t`);
    // The first read is on the wire: the transaction waits for its answer. The second was asked before
    // the transaction, and may be answered before it (when the first's answer was already in) or after
    // it (still queued): either is the order they were asked in. A read asked after it sees its row.
    db.transaction(() => db.query('INSERT INTO t VALUES (1)'));
    const third = db.allAsync(sql<{ n: number }>`SELECT COUNT(*)::int AS n FROM t`);
    expect(await first).toEqual([{ n: 0 }]);
    expect([[{ n: 0 }], [{ n: 1 }]]).toContainEqual(await second);
    expect(await third).toEqual([{ n: 1 }]);
    const prepared = db.prepared((v: { id: number }) => sql<{ id: number }>`SELECT id FROM t WHERE id = ${v.id}`);
    expect(await Promise.all([prepared.allAsync({ id: 1 }), prepared.allAsync({ id: 2 })])).toEqual([[{ id: 1 }], []]);
  });

  it('a failed read is reported as a statement failure; the connection serves on', async () => {
    const failed = db.allAsync(sql`SELECT 1 / 0 AS n`);
    await expect(failed).rejects.toBeInstanceOf(PostgresError);
    await expect(failed).rejects.toMatchObject({ code: '22012', message: 'division by zero' });
    expect(await db.allAsync(sql<{ n: number }>`SELECT 2 AS n`)).toEqual([{ n: 2 }]);
  });

  it('is refused inside a transaction (it would run outside it)', async () => {
    let inside: Promise<unknown> | undefined;
    db.transaction(() => {
      inside = db.allAsync(sql`SELECT 1 AS n`);
    });
    await expect(inside).rejects.toThrow(/cannot run inside a transaction/);
  });

  it('past statement_timeout: the database unavailable for now (503), and the next read is answered', async () => {
    const impatient = new PostgresDatabase<unknown>(`${database.url}&statement_timeout=300`);
    try {
      const release = hold(42);
      try {
        await expect(impatient.allAsync(sql`SELECT 1 AS n FROM pg_advisory_xact_lock(42)`)).rejects.toBeInstanceOf(DatabaseTimeoutError);
      } finally {
        release();
      }
      // (behind a pooler the server sets no timeout outside a transaction: the read was abandoned
      // with its connection, and a new one is opened in the background)
      expect(await vi.waitFor(() => impatient.allAsync(sql<{ n: number }>`SELECT 3 AS n`), { timeout: 5000 })).toEqual([{ n: 3 }]);
    } finally {
      impatient.close();
    }
  });

  it.skipIf(THROUGH_POOLER)('reads after the backend was terminated while idle are answered, time after time', async () => {
    const read = db.prepared((v: { n: number }) => sql<{ n: number }>`SELECT ${v.n}::int AS n`);
    for (let round = 0; round < 3; round++) {
      const pid = Number(db.query('SELECT pg_backend_pid() AS pid')[0]!.pid);
      expect(await read.allAsync({ n: round })).toEqual([{ n: round }]);
      other.query('SELECT pg_terminate_backend($1, 5000)', [pid]);
      expect(await Promise.all([read.allAsync({ n: 1 }), db.allAsync(sql<{ n: number }>`SELECT 2 AS n`)])).toEqual([
        [{ n: 1 }],
        [{ n: 2 }],
      ]);
    }
  });

  it.skipIf(THROUGH_POOLER)('a read whose backend is terminated under it runs once more on a new connection', async () => {
    const pid = Number(db.query('SELECT pg_backend_pid() AS pid')[0]!.pid);
    const release = hold(43);
    const read = db.allAsync(sql<{ pid: number }>`SELECT pg_backend_pid() AS pid FROM pg_advisory_xact_lock(43)`);
    expect(await pending(read)).toBe(true);
    other.query('SELECT pg_terminate_backend($1, 5000)', [pid]);
    release();
    const [row] = await read;
    expect(row!.pid).not.toBe(pid);
  });
});
