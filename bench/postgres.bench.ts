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
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPostgresRegistry, openRegistry } from '@registry/open';
import { startScript } from './support/processes';
import { backendPids, cpuMs } from './support/cpu';
import { createDatabase, releaseHolds } from './support/postgres-database';
import { cpuFigures } from './support/postgres-figures';
import { finishToProcessed, LATENCY_FLOWS, percentile } from './support/postgres-latency';
import { compareLocking, lockingFigures } from './support/postgres-locking';
import { buildWorld, type Seller, type World } from './support/postgres-world';
import { wrk, wrkScript } from './support/wrk';
import type { BenchFigure, BenchSuite } from './types';

const SERVER = 'test/support/warehouse-server.ts';

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
    const stops: (() => Promise<void>)[] = [];
    try {
      // the same world on both engines
      const pg = openPostgresRegistry({ databaseUrl: database.url });
      const w = buildWorld(pg);
      pg.close();
      if (process.env.BENCH_POSTGRES_PART === 'locking') {
        const load = loadavg()[0]!;
        return [
          ...lockingFigures('8 organizations', await compareLocking(database.url, w.appId, w.sellers), load),
          ...lockingFigures('one organization', await compareLocking(database.url, w.appId, [w.sellers[1]!]), load),
        ];
      }
      const sqliteDir = join(dir, 'sqlite');
      const lite = openRegistry({ dataDir: sqliteDir });
      const wl = buildWorld(lite);
      lite.close();

      const pids: number[] = [];
      const start = async (target: string) => {
        const server = await startScript<{ url: string }>(SERVER, [target]);
        stops.push(server.stop);
        pids.push(server.child.pid!);
        return server.info.url;
      };
      const pgBases = [await start(database.url), await start(database.url)];
      const sqliteBase = await start(sqliteDir);
      // CPU per request: of the server process, and (PostgreSQL) of every backend on the database,
      // those the run opened included (a process opens its read connections as its reads need them)
      const measured = async (bases: string[], script: string, connections: number, server: number) => {
        const backends = server === 2 ? [] : backendPids(serverUrl, database.name);
        const [serverBefore, backendsBefore] = [cpuMs([pids[server]!]), cpuMs(backends)];
        const rate = await wrk(bases, script, connections);
        const perRequest = (ms: number) => ms / rate.total;
        const opened = server === 2 ? [] : backendPids(serverUrl, database.name).filter((pid) => !backends.includes(pid));
        return {
          ...rate,
          serverMs: perRequest(cpuMs([pids[server]!]) - serverBefore),
          backendMs: perRequest(cpuMs(backends) + cpuMs(opened) - backendsBefore),
        };
      };

      const floorScript = wrkScript(dir, [{ method: 'GET', path: '/__floor__/ping' }]);
      /** The reads ratio and CPU per read alone (BENCH_POSTGRES_PART=reads), PostgreSQL and SQLite alternated twice. */
      const readsOnly = async (pgOne: string[], lite: string): Promise<BenchFigure[]> => {
        const figures: BenchFigure[] = [];
        for (let round = 1; round <= 2; round++) {
          const before = loadavg()[0]!;
          const pgReads = await measured(pgOne, reads(w), 32, 0);
          const liteReads = await measured([lite], reads(wl), 32, 2);
          const ratio = pgReads.rps / liteReads.rps;
          figures.push(
            {
              suite: 'postgres',
              name: `reads, PostgreSQL against SQLite, 1 process each (run ${round}; load ${before.toFixed(1)}→${loadavg()[0]!.toFixed(1)})`,
              value: pgReads.rps,
              unit: 'req/s',
              floor: liteReads.rps,
              ratio,
              target: '>= 0.8x SQLite',
              pass: ratio >= 0.8,
            },
            ...cpuFigures(`read (run ${round})`, pgReads, liteReads),
          );
        }
        return figures;
      };
      const reads = (x: World) =>
        wrkScript(
          dir,
          x.sellers.map((s) => ({ method: 'GET', path: `/organizations/${s.id}/warehouse/inventory`, token: s.token })),
        );
      const reserveRequests = (sellers: Seller[]) =>
        sellers.flatMap((s) =>
          s.credits.map((creditId) => ({
            method: 'POST' as const,
            path: `/organizations/${s.id}/warehouse/inventory/reservations`,
            token: s.token,
            body: JSON.stringify({ creditId, amount: 0.001 }),
          })),
        );
      // interleave organizations so that consecutive requests are for different ones
      const spread = (x: World) => {
        const all = reserveRequests(x.sellers);
        return wrkScript(
          dir,
          [0, 1, 2, 3].flatMap((c) => all.filter((_, i) => i % 4 === c)),
        );
      };
      const oneOrg = (x: World) => wrkScript(dir, reserveRequests([x.sellers[0]!]));

      const one = [pgBases[0]!];
      if (process.env.BENCH_POSTGRES_PART === 'reads') return await readsOnly(one, sqliteBase);
      const loadBefore = loadavg()[0]!;
      const floor1 = await wrk(one, floorScript, 32);
      const floor2 = await wrk(pgBases, floorScript, 16);
      const floorLite = await wrk([sqliteBase], floorScript, 32);
      const reads1 = await measured(one, reads(w), 32, 0);
      const reads2 = await wrk(pgBases, reads(w), 16);
      const readsLite = await measured([sqliteBase], reads(wl), 32, 2);
      const fresh = () => releaseHolds(database.url);
      const res1 = await measured(one, spread(w), 32, 0);
      fresh();
      const res2 = await wrk(pgBases, spread(w), 16);
      const resLite = await measured([sqliteBase], spread(wl), 32, 2);
      fresh();
      const hot1 = await wrk(one, oneOrg(w), 32);
      fresh();
      const hot2 = await wrk(pgBases, oneOrg(w), 16);
      fresh();
      const latencies = await finishToProcessed(pgBases, w);
      const loadAfter = loadavg()[0]!;
      for (const stop of stops.splice(0)) await stop();

      const spreadLocking = await compareLocking(database.url, w.appId, w.sellers);
      const hotLocking = await compareLocking(database.url, w.appId, [w.sellers[1]!]);
      const loadEnd = loadavg()[0]!;

      const s = 'postgres';
      const load = `load ${loadBefore.toFixed(1)}→${loadAfter.toFixed(1)}`;
      const p99 = percentile(latencies, 99);
      return [
        {
          suite: s,
          name: `reads, 1 process (warehouse inventory, 32 conn; ${load})`,
          value: reads1.rps,
          unit: 'req/s',
          floor: floor1.rps,
          ratio: reads1.rps / floor1.rps,
        },
        {
          suite: s,
          name: 'reads, 2 processes (16 conn each)',
          value: reads2.rps,
          unit: 'req/s',
          floor: floor2.rps,
          ratio: reads2.rps / reads1.rps,
          target: 'ratio: x 1 process',
        },
        {
          suite: s,
          name: 'reads, SQLite, 1 process',
          value: readsLite.rps,
          unit: 'req/s',
          floor: floorLite.rps,
          ratio: readsLite.rps / floorLite.rps,
        },
        {
          suite: s,
          name: 'reads, PostgreSQL against SQLite, 1 process each',
          value: reads1.rps,
          unit: 'req/s',
          floor: readsLite.rps,
          ratio: reads1.rps / readsLite.rps,
          target: '>= 0.8x SQLite',
          pass: reads1.rps >= 0.8 * readsLite.rps,
        },
        ...cpuFigures('read', reads1, readsLite),
        {
          suite: s,
          name: `reservations, 8 organizations, 1 process (${res1.total} made)`,
          value: res1.rps,
          unit: 'req/s',
          floor: floor1.rps,
          ratio: res1.rps / floor1.rps,
        },
        {
          suite: s,
          name: `reservations, 8 organizations, 2 processes (${res2.total} made)`,
          value: res2.rps,
          unit: 'req/s',
          floor: floor2.rps,
          ratio: res2.rps / res1.rps,
          target: '>= 1.5x 1 process',
          pass: res2.rps >= 1.5 * res1.rps,
        },
        {
          suite: s,
          name: `reservations, SQLite, 1 process (${resLite.total} made)`,
          value: resLite.rps,
          unit: 'req/s',
          floor: floorLite.rps,
          ratio: resLite.rps / floorLite.rps,
        },
        {
          suite: s,
          name: 'reservations, one organization, 1 process',
          value: hot1.rps,
          unit: 'req/s',
          floor: floor1.rps,
          ratio: hot1.rps / floor1.rps,
        },
        {
          suite: s,
          name: 'reservations, one organization, 2 processes',
          value: hot2.rps,
          unit: 'req/s',
          floor: floor2.rps,
          ratio: hot2.rps / hot1.rps,
          target: 'ratio: x 1 process',
        },
        ...cpuFigures('reservation', res1, resLite),
        { suite: s, name: `finish→processed p50 (2 processes, ${LATENCY_FLOWS} flows)`, value: percentile(latencies, 50), unit: 'ms' },
        {
          suite: s,
          name: `finish→processed p99 (${latencies.length} samples)`,
          value: p99,
          unit: 'ms',
          target: '< 250 ms',
          pass: p99 < 250,
        },
        ...lockingFigures('8 organizations', spreadLocking, loadEnd),
        ...lockingFigures('one organization', hotLocking, loadEnd),
      ] satisfies BenchFigure[];
    } finally {
      for (const stop of stops) await stop();
      database.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
