// Reads that do not hold the process (SyncDatabase.allAsync, postgres-read-pool.ts): while
// PostgreSQL answers one, the process goes on (here: releases the lock the read waits on, which a
// blocking read would never let it do); reads run on a bounded pool of connections of their own,
// several at once, and each sees every write committed before it was asked; a failed read is
// reported as a synchronous statement's failure is, and a read whose connection was cut under it
// runs once more on a new connection.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DatabaseTimeoutError, DatabaseUnavailableError } from '@platform/db/database';
import { PostgresDatabase, PostgresError } from '@platform/db/postgres';
import { advisoryLockWaiters, createTestDatabase, POSTGRES_URL, type TestDatabase } from '@test/support/postgres';
import { ON_POSTGRES } from '@test/support/registry';

const THROUGH_POOLER = /[?&]pgbouncer=true(&|$)/.test(POSTGRES_URL);

/** The process's timers (Node's active resources). */
const timers = (): number => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

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
  /** The backends waiting for advisory lock `key` (in this test's database). */
  const waitersOn = (key: number): number[] => advisoryLockWaiters(other, key);
  const waitingOn = (key: number): number => waitersOn(key).length;
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

  it("rows come back as SQLite's, blocking or not, the first time and every time after", async () => {
    // each statement keeps its result's shape (postgres-rows.ts): later results must read the same,
    // and another statement's shape must not leak into them
    const values = sql<Record<string, unknown>>`SELECT 9007199254740991::int8 AS big, 2::int4 AS small, 12.5::numeric AS sum,
      true AS yes, false AS no, '' AS empty, NULL::text AS missing, 'x' AS text`;
    const other = sql<Record<string, unknown>>`SELECT NULL::int8 AS big, 'y' AS small`;
    const expected = { big: 9007199254740991, small: 2, sum: 12.5, yes: 1, no: 0, empty: '', missing: null, text: 'x' };
    for (let round = 0; round < 2; round++) {
      expect(db.all(values)).toEqual([expected]);
      expect(await db.allAsync(values)).toEqual([expected]);
      expect(db.all(other)).toEqual([{ big: null, small: 'y' }]);
      expect(await db.allAsync(other)).toEqual([{ big: null, small: 'y' }]);
    }
    expect(await db.allAsync(sql<{ n: number }>`SELECT n FROM generate_series(1, 3) AS n WHERE n > 5`)).toEqual([]);
  });

  it('the process goes on while the database answers; the read gets its rows once it is answered', async () => {
    const release = hold(41);
    const read = db.allAsync(sql<{ n: number }>`SELECT 7 AS n FROM pg_advisory_xact_lock(41)`);
    expect(await pending(read)).toBe(true);
    release();
    expect(await read).toEqual([{ n: 7 }]);
  });

  it('a read sees every write committed before it was asked, by this process or another', async () => {
    // Reads run on other connections than the writes, several at once, and a queued one is sent
    // later: each must still count at least the rows inserted before it was asked.
    const counts: Promise<{ n: number }[]>[] = [];
    for (let i = 1; i <= 30; i++) {
      if (i % 3 === 0) other.query('INSERT INTO t VALUES ($1)', [i]);
      else if (i % 3 === 1) db.transaction(() => db.query('INSERT INTO t VALUES ($1)', [i]));
      else db.query('INSERT INTO t VALUES ($1)', [i]);
      counts.push(db.allAsync(sql<{ n: number }>`SELECT COUNT(*)::int AS n FROM t`));
    }
    const seen = (await Promise.all(counts)).map((rows) => rows[0]!.n);
    seen.forEach((n, i) => expect(n).toBeGreaterThanOrEqual(i + 1));
    const prepared = db.prepared((v: { id: number }) => sql<{ id: number }>`SELECT id FROM t WHERE id = ${v.id}`);
    expect(await Promise.all([prepared.allAsync({ id: 1 }), prepared.allAsync({ id: 31 })])).toEqual([[{ id: 1 }], []]);
  });

  it('runs reads on at most read_connections connections at once; the rest wait their turn', async () => {
    const small = new PostgresDatabase<unknown>(`${database.url}&read_connections=3`);
    try {
      const release = hold(44);
      const timersBefore = timers();
      const reads = [1, 2, 3, 4, 5].map((n) => small.allAsync(sql<{ n: number }>`SELECT ${n}::int AS n FROM pg_advisory_xact_lock(44)`));
      // three wait on the lock at the database at once (one connection would carry one), two in the pool
      await vi.waitFor(() => expect(waitingOn(44)).toBe(3), { timeout: 5000 });
      expect(small.reads.open).toBe(3);
      // one timer looks at the three in flight (not one each), and one per read waiting in line
      // (at most: a timer of `db`'s reads in the tests before may have run out meanwhile)
      expect(timers() - timersBefore).toBeLessThanOrEqual(1 + 2);
      expect(await pending(Promise.race(reads))).toBe(true);
      release();
      expect(await Promise.all(reads)).toEqual([1, 2, 3, 4, 5].map((n) => [{ n }]));
      expect(small.reads.open).toBe(3);
    } finally {
      small.close();
    }
  });

  it('a failed read is reported as a statement failure; the connection serves on', async () => {
    const failed = db.allAsync(sql`SELECT 1 / 0 AS n`);
    await expect(failed).rejects.toBeInstanceOf(PostgresError);
    await expect(failed).rejects.toMatchObject({ code: '22012', message: 'division by zero' });
    expect(await db.allAsync(sql<{ n: number }>`SELECT 2 AS n`)).toEqual([{ n: 2 }]);
    // one that cannot even be prepared reports its own error each time it is asked
    for (let i = 0; i < 2; i++) await expect(db.allAsync(sql`SELECT nope FROM t`)).rejects.toMatchObject({ code: '42703' });
  });

  it('is refused inside a transaction (it would run outside it)', async () => {
    let inside: Promise<unknown> | undefined;
    let insidePrepared: Promise<unknown> | undefined;
    const prepared = db.prepared(() => sql<{ n: number }>`SELECT 1 AS n`);
    db.transaction(() => {
      inside = db.allAsync(sql`SELECT 1 AS n`);
      // a rejection, as the other, not a throw out of the transaction
      insidePrepared = prepared.allAsync({});
    });
    await expect(inside).rejects.toThrow(/cannot run inside a transaction/);
    await expect(insidePrepared).rejects.toThrow(/cannot run inside a transaction/);
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

  it('a read that waits for a busy connection is answered 503 by its deadline, counted from when it was asked', async () => {
    // One read connection, held by a read waiting on a lock: the second read waits in line until
    // PostgreSQL cancels the first (2 s). Its own deadline (2 s and the 0.5 s grace) runs from when it
    // was asked, not from when it is sent: answered at about 2.5 s, never at the first's end plus a
    // whole deadline (4 s).
    // Behind a pooler the server sets no timeout outside a transaction: the first read goes
    // unanswered to its own deadline, a moment before the second's, and is abandoned there. A read
    // unanswered for a whole timeout means the database stopped answering, and the reads waiting
    // in line are answered 503 as unavailable at once; which of that and the second's own timer
    // comes first is a matter of microseconds. Either is a 503 with Retry-After at about 2.5 s.
    const single = new PostgresDatabase<unknown>(`${database.url}&statement_timeout=2000&read_connections=1`);
    const release = hold(46);
    try {
      const first = single.allAsync(sql`SELECT 1 AS n FROM pg_advisory_xact_lock(46)`).catch((error: unknown) => error);
      const askedAt = performance.now();
      const second = single.allAsync(sql`SELECT 2 AS n FROM pg_advisory_xact_lock(46)`);
      const answered = await second.then(
        () => 'rows',
        (error: unknown) => error,
      );
      const tookMs = performance.now() - askedAt;
      expect(answered).toBeInstanceOf(THROUGH_POOLER ? DatabaseUnavailableError : DatabaseTimeoutError);
      expect(tookMs).toBeGreaterThanOrEqual(2400);
      expect(tookMs).toBeLessThan(3200);
      expect(await first).toBeInstanceOf(DatabaseTimeoutError);
    } finally {
      release();
    }
    try {
      expect(await vi.waitFor(() => single.allAsync(sql<{ n: number }>`SELECT 3 AS n`), { timeout: 5000 })).toEqual([{ n: 3 }]);
    } finally {
      single.close();
    }
  });

  it.skipIf(THROUGH_POOLER)('reads after the backend was terminated while idle are answered, time after time', async () => {
    const read = db.prepared((v: { n: number }) => sql<{ n: number }>`SELECT ${v.n}::int AS n`);
    for (let round = 0; round < 3; round++) {
      expect(await Promise.all([read.allAsync({ n: round }), read.allAsync({ n: round })])).toEqual([[{ n: round }], [{ n: round }]]);
      expect(db.reads.open).toBeGreaterThan(0);
      // every connection of `db` (its main one and its read connections), as a restart would
      other.query(
        'SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
      );
      expect(await Promise.all([read.allAsync({ n: 1 }), db.allAsync(sql<{ n: number }>`SELECT 2 AS n`)])).toEqual([
        [{ n: 1 }],
        [{ n: 2 }],
      ]);
    }
  });

  it.skipIf(THROUGH_POOLER)('a read connection cut as it opened, noticed late, is opened again rather than answered 503', async () => {
    // A new pool: its first reads open one connection, then a second in the background; the backends
    // are terminated while that one opens, by a statement that holds this process for a while, so the
    // open's failure (said by the server at once) is noticed late. Timed from its start it looked like
    // a database not answering, and the reads waiting were answered 503 with the database up.
    const fresh = new PostgresDatabase<unknown>(database.url);
    try {
      expect(
        await Promise.all([fresh.allAsync(sql<{ n: number }>`SELECT 1 AS n`), fresh.allAsync(sql<{ n: number }>`SELECT 2 AS n`)]),
      ).toEqual([[{ n: 1 }], [{ n: 2 }]]);
      other.query(
        'SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
      );
      other.query('SELECT pg_sleep(0.3)');
      expect(
        await Promise.all([fresh.allAsync(sql<{ n: number }>`SELECT 3 AS n`), fresh.allAsync(sql<{ n: number }>`SELECT 4 AS n`)]),
      ).toEqual([[{ n: 3 }], [{ n: 4 }]]);
    } finally {
      fresh.close();
    }
  });

  it.skipIf(THROUGH_POOLER)('a read connection cut while idle is let go at once, before a read needs it', async () => {
    // one read connection: none is being opened when the backends are terminated
    const single = new PostgresDatabase<unknown>(`${database.url}&read_connections=1`);
    try {
      expect(await single.allAsync(sql<{ n: number }>`SELECT 1 AS n`)).toEqual([{ n: 1 }]);
      expect(single.reads.open).toBe(1);
      other.query(
        'SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
      );
      // the idle connection's socket is watched: its end is found without a read sent on it
      await vi.waitFor(() => expect(single.reads.open).toBe(0), { timeout: 2000 });
      expect(await single.allAsync(sql<{ n: number }>`SELECT 5 AS n`)).toEqual([{ n: 5 }]);
    } finally {
      single.close();
    }
  });

  it.skipIf(THROUGH_POOLER)('a read whose backend is terminated under it runs once more on a new connection', async () => {
    const release = hold(43);
    const read = db.allAsync(sql<{ pid: number }>`SELECT pg_backend_pid() AS pid FROM pg_advisory_xact_lock(43)`);
    expect(await pending(read)).toBe(true);
    const [pid] = await vi.waitFor(() => {
      const waiting = waitersOn(43);
      expect(waiting).toHaveLength(1);
      return waiting;
    });
    other.query('SELECT pg_terminate_backend($1, 5000)', [pid]);
    release();
    const [row] = await read;
    expect(row!.pid).not.toBe(pid);
  });
});
