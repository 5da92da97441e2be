// Issue 17 bench: the shared registry on PostgreSQL with one and with two server processes, beside
// the same registry on SQLite, in one run. Needs a PostgreSQL it may create a database on:
// BENCH_POSTGRES_URL (or REGISTRY_TEST_POSTGRES_URL; `scripts/postgres.sh start` prints one); without
// one the suite says so in one line and measures nothing.
//   - reads/s: GET an organization's warehouse inventory (balances and holds read from the database
//     on every request), installation tokens of 8 organizations in turn;
//   - reservations/s: POST a reservation of 0.001 t, each request for one of 8 organizations (one
//     credit of its 4 in turn), and all on one organization;
//   - finish→processed: reserve on one process, finish on the other, poll until processed;
//   - each beside its floor of the same run (GET /__floor__/ping on the same processes).
// Load comes from wrk (C, one thread per process served), which leaves the cores to the servers and
// PostgreSQL; with two processes, one wrk per process at once, the rates added.
// Then the two ways to keep reservations exact across processes, straight against the database (no
// HTTP; bench/support/pg-reserver.ts): READ COMMITTED behind the credit's balance row lock (SELECT …
// FOR UPDATE), as the registry reserves, against SERIALIZABLE with bounded retry, as it reserved
// before, each with 1 and 2 processes, over the 8 organizations' credits and over one organization's
// 4, alternated, the better of two runs kept, every run starting without live holds.
// Each part is a module of bench/support: postgres-world.ts, postgres-servers.ts (and wrk.ts),
// postgres-reads.ts, postgres-reservations.ts, postgres-latency.ts, postgres-locking.ts.
// BENCH_POSTGRES_PART=reads or =locking runs that part alone.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPostgresRegistry, openRegistry } from '@registry/open';
import { createDatabase, releaseHolds } from './support/postgres-database';
import { finishToProcessed, latencyFigures } from './support/postgres-latency';
import { compareLocking, lockingFigures } from './support/postgres-locking';
import { readFigures, readsAgainstSqlite, measureReads } from './support/postgres-reads';
import { measureReservations, reservationFigures } from './support/postgres-reservations';
import { worldScripts, type WorldScripts } from './support/postgres-scripts';
import { measureFloors, startServers, type BenchServers } from './support/postgres-servers';
import { buildWorld, type World } from './support/postgres-world';
import type { BenchFigure, BenchSuite } from './types';

/** Where the PostgreSQL world lives: its database on the cluster and the cluster's admin URL. */
interface Target {
  serverUrl: string;
  database: { url: string; name: string };
}

/** BENCH_POSTGRES_PART=locking: only the direct comparison of the two ways to lock. */
async function lockingOnly(url: string, w: World): Promise<BenchFigure[]> {
  const load = loadavg()[0]!;
  return [
    ...lockingFigures('8 organizations', await compareLocking(url, w.appId, w.sellers), load),
    ...lockingFigures('one organization', await compareLocking(url, w.appId, [w.sellers[1]!]), load),
  ];
}

/**
 * Every part in turn: floors, reads, reservations, finish→processed over HTTP; then, with the
 * servers stopped, the direct locking comparison.
 */
async function everyPart(
  servers: BenchServers,
  dir: string,
  databaseUrl: string,
  w: World,
  scripts: { pg: WorldScripts; lite: WorldScripts },
): Promise<BenchFigure[]> {
  const loadBefore = loadavg()[0]!;
  const floors = await measureFloors(servers, dir);
  const reads = await measureReads(servers, scripts.pg.reads, scripts.lite.reads);
  const reservations = await measureReservations(servers, scripts.pg, scripts.lite, () => releaseHolds(databaseUrl));
  const latencies = await finishToProcessed(servers.pg, w);
  const loadAfter = loadavg()[0]!;
  await servers.stop();

  const spreadLocking = await compareLocking(databaseUrl, w.appId, w.sellers);
  const hotLocking = await compareLocking(databaseUrl, w.appId, [w.sellers[1]!]);
  const loadEnd = loadavg()[0]!;
  return [
    ...readFigures(reads, floors, `load ${loadBefore.toFixed(1)}→${loadAfter.toFixed(1)}`),
    ...reservationFigures(reservations, floors),
    ...latencyFigures(latencies),
    ...lockingFigures('8 organizations', spreadLocking, loadEnd),
    ...lockingFigures('one organization', hotLocking, loadEnd),
  ];
}

/** The same world on both engines, then the part BENCH_POSTGRES_PART names (every part without it). */
async function runIn(dir: string, { serverUrl, database }: Target): Promise<BenchFigure[]> {
  const pg = openPostgresRegistry({ databaseUrl: database.url });
  const w = buildWorld(pg);
  pg.close();
  if (process.env.BENCH_POSTGRES_PART === 'locking') return lockingOnly(database.url, w);
  const sqliteDir = join(dir, 'sqlite');
  const lite = openRegistry({ dataDir: sqliteDir });
  const wl = buildWorld(lite);
  lite.close();

  const servers = await startServers(serverUrl, database, sqliteDir);
  try {
    const scripts = { pg: worldScripts(dir, w), lite: worldScripts(dir, wl) };
    if (process.env.BENCH_POSTGRES_PART === 'reads') return await readsAgainstSqlite(servers, scripts.pg.reads, scripts.lite.reads);
    return await everyPart(servers, dir, database.url, w, scripts);
  } finally {
    await servers.stop();
  }
}

export const suite: BenchSuite = {
  name: 'postgres: one and two server processes, beside SQLite',
  async run() {
    const serverUrl = process.env.BENCH_POSTGRES_URL ?? process.env.REGISTRY_TEST_POSTGRES_URL;
    if (!serverUrl) {
      console.log('postgres: skipped: no PostgreSQL URL (set BENCH_POSTGRES_URL; scripts/postgres.sh start prints one)');
      return [];
    }
    if (spawnSync('wrk', ['--version']).error) {
      console.log('postgres: skipped: needs wrk (apt-get install wrk)');
      return [];
    }
    const dir = mkdtempSync(join(tmpdir(), 'bench-postgres-'));
    const database = createDatabase(serverUrl);
    try {
      return await runIn(dir, { serverUrl, database });
    } finally {
      database.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
