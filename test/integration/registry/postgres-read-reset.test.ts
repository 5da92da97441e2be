// A read whose connection is reset under it (a TCP reset, as a firewall, a load balancer or a
// crashed host sends) is found cut at once and runs once more on a new connection. libuv reports a
// reset socket to libpq's watcher as a failed poll, which pg-native's binding drops without a word,
// so the read pool looks at each read's socket itself (postgres-read-pool.ts); without that look the
// read waited for its whole deadline. The reset is real: a loopback proxy in front of PostgreSQL
// closes the read's connection with RST.
//
// And a read that waits for a read connection being opened to a database that does not answer is
// answered 503 at its own deadline, counted from when it was asked, not when the open gives up;
// and once a statement on the main connection went unanswered, reads are answered 503 at once, and
// the other way round.
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { DatabaseTimeoutError, DatabaseUnavailableError } from '@platform/db/database';
import { PostgresDatabase } from '@platform/db/postgres';
import { advisoryLockWaiters, createTestDatabase } from '@test/support/postgres';
import { ON_POSTGRES } from '@test/support/registry';

interface ResettingProxy {
  /** `url` with its host and port replaced by the proxy's. */
  through(url: string): string;
  /** Closes every client connection with a TCP reset. */
  reset(): Promise<void>;
  /** From now on, accepts connections and never answers them (as a frozen server's listen queue). */
  stall(): Promise<void>;
  /** From now on, forwards nothing on the open connections either (as a frozen server). */
  freeze(): Promise<void>;
  close(): Promise<number>;
}

// In a thread of its own: the engine's synchronous connect and statements hold this thread's event
// loop, so a proxy here could not accept them.
const PROXY = `
const { parentPort, workerData } = require('node:worker_threads');
const net = require('node:net');
const clients = new Set();
const sockets = new Set();
let stalled = false;
const server = net.createServer((client) => {
  clients.add(client);
  if (stalled) return;
  const upstream = net.connect(workerData.port, workerData.host);
  sockets.add(client).add(upstream);
  client.pipe(upstream).pipe(client);
  const end = () => { clients.delete(client); sockets.delete(client); sockets.delete(upstream); client.destroy(); upstream.destroy(); };
  for (const socket of [client, upstream]) socket.on('error', end).on('close', end);
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
parentPort.on('message', (message) => {
  if (message === 'stall') stalled = true;
  else if (message === 'freeze') {
    stalled = true;
    for (const socket of sockets) socket.pause();
  }
  else for (const client of clients) client.resetAndDestroy();
  parentPort.postMessage(message);
});
`;

async function startResettingProxy(target: URL): Promise<ResettingProxy> {
  const worker = new Worker(PROXY, { eval: true, workerData: { host: target.hostname, port: Number(target.port) } });
  const [port] = (await once(worker, 'message')) as [number];
  return {
    through(url) {
      const proxied = new URL(url);
      proxied.hostname = '127.0.0.1';
      proxied.port = String(port);
      return proxied.toString();
    },
    async reset() {
      worker.postMessage('reset');
      await once(worker, 'message');
    },
    async stall() {
      worker.postMessage('stall');
      await once(worker, 'message');
    },
    async freeze() {
      worker.postMessage('freeze');
      await once(worker, 'message');
    },
    close: () => worker.terminate(),
  };
}

// (not behind PgBouncer: this file is not in that project, and the reset would be PgBouncer's)
describe.skipIf(!ON_POSTGRES)('a read whose connection is reset under it, on PostgreSQL', () => {
  it('runs once more on a new connection at once, long before its deadline', async () => {
    const database = createTestDatabase('registry_read_reset');
    const proxy = await startResettingProxy(new URL(database.url));
    // a deadline far past the test's own timeout: a read that waited for it fails the test
    const db = new PostgresDatabase<unknown>(`${proxy.through(database.url)}&statement_timeout=60000`);
    const other = new PostgresDatabase<unknown>(database.url);
    const waiting = (): number[] => advisoryLockWaiters(other, 45);
    try {
      other.exec('BEGIN; SELECT pg_advisory_xact_lock(45)');
      const read = db.allAsync(sql<{ pid: number }>`SELECT pg_backend_pid() AS pid FROM pg_advisory_xact_lock(45)`);
      const [first] = await vi.waitFor(() => {
        const pids = waiting();
        expect(pids).toHaveLength(1);
        return pids;
      });
      await proxy.reset();
      // sent again: a second backend waits on the lock (the first still does, unaware its client is gone)
      await vi.waitFor(() => expect(waiting().filter((pid) => pid !== first)).toHaveLength(1), { timeout: 3000 });
      other.exec('COMMIT');
      const [row] = await read;
      expect(row!.pid).not.toBe(first);
    } finally {
      db.close();
      other.close();
      await proxy.close();
      database.drop();
    }
  }, 10_000);

  it('a read waiting for a connection that is being opened is answered 503 at its own deadline', async () => {
    const database = createTestDatabase('registry_read_stall');
    const proxy = await startResettingProxy(new URL(database.url));
    // deadline 0.3 s and the 0.5 s grace; an open that is never answered gives up after 2 s (connect_timeout)
    const db = new PostgresDatabase<unknown>(`${proxy.through(database.url)}&statement_timeout=300`);
    try {
      await proxy.stall();
      const askedAt = performance.now();
      const answered = await db.allAsync(sql`SELECT 1 AS n`).then(
        () => 'rows',
        (error: unknown) => error,
      );
      const tookMs = performance.now() - askedAt;
      expect(answered).toBeInstanceOf(DatabaseUnavailableError);
      expect(tookMs).toBeGreaterThanOrEqual(750);
      expect(tookMs).toBeLessThan(1500);
    } finally {
      db.close();
      await proxy.close();
      database.drop();
    }
  });

  it('once a statement on the main connection went unanswered, reads are answered 503 at once', async () => {
    await onFrozenDatabase('registry_read_frozen', async (db, freeze) => {
      const read = () => db.allAsync(sql<{ n: number }>`SELECT 1 AS n`);
      expect(await read()).toEqual([{ n: 1 }]);
      await freeze();
      expect(() => db.query('SELECT 2 AS n')).toThrow(DatabaseTimeoutError);
      // the read connection was open and idle, the statement prepared on it (a new one would be
      // prepared on the main connection first): without being told, the read would wait out 0.8 s
      const askedAt = performance.now();
      await expect(read()).rejects.toBeInstanceOf(DatabaseUnavailableError);
      expect(performance.now() - askedAt).toBeLessThan(400);
    });
  });

  it("once a read went unanswered, the main connection's next statement is answered 503 at once", async () => {
    await onFrozenDatabase('registry_main_frozen', async (db, freeze) => {
      // each statement prepared on its connection while the database answered (a new read would
      // be prepared on the main connection first, which would find the freeze itself)
      const read = () => db.allAsync(sql<{ n: number }>`SELECT 1 AS n`);
      const write = () => db.query('SELECT 2 AS n');
      expect(await read()).toEqual([{ n: 1 }]);
      expect(write()).toEqual([{ n: 2 }]);
      await freeze();
      await expect(read()).rejects.toBeInstanceOf(DatabaseTimeoutError);
      // Not a DatabaseTimeoutError: that one waits out its deadline, holding the process (every
      // request in it) as long, as a registry's write or background job did after its reads.
      const error = catchError(write);
      expect(error).toBeInstanceOf(DatabaseUnavailableError);
      expect(error).not.toBeInstanceOf(DatabaseTimeoutError);
    });
  });
});

/**
 * An engine on a database of its own behind the proxy, one read connection, deadline 0.3 s and the
 * 0.5 s grace on the main connection and on the read connection alike; `freeze` stops the proxy
 * forwarding anything, as a frozen server. All closed after `run`.
 */
async function onFrozenDatabase(name: string, run: (db: PostgresDatabase<unknown>, freeze: () => Promise<void>) => Promise<void>) {
  const database = createTestDatabase(name);
  const proxy = await startResettingProxy(new URL(database.url));
  const db = new PostgresDatabase<unknown>(`${proxy.through(database.url)}&statement_timeout=300&read_connections=1`);
  try {
    await run(db, () => proxy.freeze());
  } finally {
    db.close();
    await proxy.close();
    database.drop();
  }
}

function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('it did not throw');
}
