// Reads sent together (SyncDatabase.allAsyncTogether, postgres-pipeline.ts): on PostgreSQL the
// statements of several reads, and the preparations of those not yet prepared on the read
// connection, go out in one pipeline and are answered in one round trip; each read's rows come back
// as allAsync would answer them, a failed one is reported as a statement's failure, and the read
// connection serves on. A statement only ever read this way is never prepared on the main connection.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresDatabase, PostgresError } from '@platform/db/postgres';
import { startCountingProxy } from '@test/support/counting-proxy';
import { createTestDatabase, POSTGRES_URL, type TestDatabase } from '@test/support/postgres';
import { ON_POSTGRES } from '@test/support/registry';

const THROUGH_POOLER = /[?&]pgbouncer=true(&|$)/.test(POSTGRES_URL);

// Module-level builders, as the registry's are: each is one prepared statement.
const valuesOf = (v: { n: number }) => sql<{ n: number; big: number; yes: number; text: string | null }>`
  SELECT ${v.n}::int AS n, 9007199254740991::int8 AS big, true AS yes, NULL::text AS text`;
const seriesTo = (v: { n: number }) => sql<{ i: number }>`SELECT i FROM generate_series(1, ${v.n}::int) AS i`;
/** The start of the transaction it runs in, and the backend it runs on. */
const transactionOf = () => sql<{ started: string; pid: number }>`SELECT transaction_timestamp()::text AS started, pg_backend_pid() AS pid`;
const quotient = (v: { d: number }) => sql<{ q: number }>`SELECT 10 / ${v.d}::int AS q`;
const missingColumn = () => sql<{ n: number }>`SELECT nope FROM t`;

describe.skipIf(!ON_POSTGRES)('reads sent together, on PostgreSQL', () => {
  let database: TestDatabase;
  let db: PostgresDatabase<unknown>;
  /** One read connection, so that every read runs on the same one. */
  let single: PostgresDatabase<unknown>;

  beforeAll(() => {
    database = createTestDatabase('registry_reads_together');
    db = new PostgresDatabase(database.url);
    single = new PostgresDatabase(`${database.url}&read_connections=1`);
    db.exec('CREATE TABLE t (id integer)');
  });
  afterAll(() => {
    db?.close();
    single?.close();
    database?.drop();
  });

  it("answers each read's rows in order, as allAsync does, the first time and every time after", async () => {
    for (let round = 0; round < 2; round++) {
      const [values, series, none] = await db.allAsyncTogether(
        db.prepared(valuesOf).withValues({ n: round }),
        db.prepared(seriesTo).withValues({ n: 3 }),
        db.prepared(seriesTo).withValues({ n: 0 }),
      );
      expect(values).toEqual([{ n: round, big: 9007199254740991, yes: 1, text: null }]);
      expect(values).toEqual(await db.prepared(valuesOf).allAsync({ n: round }));
      expect(series).toEqual([{ i: 1 }, { i: 2 }, { i: 3 }]);
      expect(none).toEqual([]);
    }
  });

  it('sends them in one pipeline: they run in one implicit transaction, on one backend', async () => {
    const read = single.prepared(transactionOf);
    const [[first], [second]] = await single.allAsyncTogether(read.withValues({}), read.withValues({}));
    expect(second).toEqual(first);
    // asked one after another, each is a transaction (and a round trip) of its own
    const [apart] = await read.allAsync({});
    expect(apart!.started).not.toBe(first!.started);
  });

  it.skipIf(THROUGH_POOLER)('prepares a statement read only this way on its read connection alone, never on the main one', async () => {
    const probe = (v: { n: number }) => sql<{ n: number }>`SELECT ${v.n}::int + 40 AS n`;
    const mainHas = () =>
      // (the pattern split, so that this statement, prepared there too, does not count itself)
      db.query(`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement LIKE '%+ 4' || '0 AS n%'`)[0]!.n as number;
    expect(await db.allAsyncTogether(db.prepared(probe).withValues({ n: 2 }))).toEqual([[{ n: 42 }]]);
    expect(await db.prepared(probe).allAsync({ n: 1 })).toEqual([{ n: 41 }]);
    expect(mainHas()).toBe(0);
    // run on the main connection, it is prepared there at that first run
    expect(db.prepared(probe).all({ n: 0 })).toEqual([{ n: 40 }]);
    expect(mainHas()).toBe(1);
  });

  it("a failed read fails them all with its statement's error; the connection serves on", async () => {
    const backend = async () => (await single.prepared(transactionOf).allAsync({}))[0]!.pid;
    const before = await backend();
    const together = single.allAsyncTogether(
      single.prepared(quotient).withValues({ d: 5 }),
      single.prepared(quotient).withValues({ d: 0 }),
    );
    await expect(together).rejects.toBeInstanceOf(PostgresError);
    await expect(together).rejects.toMatchObject({ code: '22012', message: 'division by zero' });
    expect(await single.allAsyncTogether(single.prepared(quotient).withValues({ d: 2 }))).toEqual([[{ q: 5 }]]);
    // the same read connection: the failed pipeline was read to its end, not dropped (directly only:
    // PgBouncer in transaction mode hands each transaction whichever server connection is free)
    if (!THROUGH_POOLER) expect(await backend()).toBe(before);
  });

  it.skipIf(THROUGH_POOLER)("a failed read's end that comes after its error is waited for: the connection serves on", async () => {
    // The backend flushes an error at once and its Sync's answer after it, so on a real network the
    // read may fail before the end of its pipeline has come. The connection is kept for it.
    const url = new URL(database.url);
    const proxy = await startCountingProxy({ host: url.hostname, port: Number(url.port) }, { holdAfterErrorMs: 100 });
    url.hostname = proxy.host;
    url.port = String(proxy.port);
    url.searchParams.set('sslmode', 'disable');
    url.searchParams.set('gssencmode', 'disable');
    url.searchParams.set('read_connections', '1');
    const split = new PostgresDatabase(url.toString());
    try {
      const backend = async () => (await split.prepared(transactionOf).allAsync({}))[0]!.pid;
      const before = await backend();
      const failing = split.allAsyncTogether(split.prepared(quotient).withValues({ d: 0 }));
      await expect(failing).rejects.toMatchObject({ code: '22012' });
      // asked while the end is held: answered once it has come, on the same connection
      expect(await split.allAsyncTogether(split.prepared(quotient).withValues({ d: 2 }))).toEqual([[{ q: 5 }]]);
      expect(await backend()).toBe(before);
    } finally {
      split.close();
      await proxy.close();
    }
  });

  it('a statement that cannot be prepared reports its error each time; the others of its pipeline are prepared again', async () => {
    const fresh = (v: { n: number }) => sql<{ n: number }>`SELECT ${v.n}::int * 3 AS n`;
    for (let round = 0; round < 2; round++) {
      await expect(
        single.allAsyncTogether(single.prepared(missingColumn).withValues({}), single.prepared(fresh).withValues({ n: 1 })),
      ).rejects.toMatchObject({ code: '42703' });
    }
    // its preparation was never run (the pipeline stopped at the error before it): prepared now
    expect(await single.allAsyncTogether(single.prepared(fresh).withValues({ n: 2 }))).toEqual([[{ n: 6 }]]);
  });

  it('is refused inside a transaction (it would run outside it), as a rejection', async () => {
    let inside: Promise<unknown> | undefined;
    db.transaction(() => {
      inside = db.allAsyncTogether(db.prepared(seriesTo).withValues({ n: 1 }));
    });
    await expect(inside).rejects.toThrow(/cannot run inside a transaction/);
  });
});
