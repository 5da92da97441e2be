// The PostgreSQL bench's reads: an organization's warehouse inventory (balances and holds read from
// the database on every request), each of the 8 sellers in turn with its installation token.
import { loadavg } from 'node:os';
import type { BenchFigure } from '@bench/types';
import { cpuFigures } from './postgres-figures';
import type { BenchServers, Floors, Measured } from './postgres-servers';
import { warmUp, wrk, type Rate } from './wrk';

export interface Reads {
  one: Measured;
  two: Rate;
  lite: Measured;
}

/** Reads on one PostgreSQL process, on both, then on SQLite (each script for its engine's world). */
export async function measureReads(servers: BenchServers, pgReads: string, liteReads: string): Promise<Reads> {
  await warmBoth(servers, pgReads, liteReads);
  const one = await servers.measured([servers.pg[0]!], pgReads, 32, 'postgres');
  const two = await wrk(servers.pg, pgReads, 16);
  const lite = await servers.measured([servers.lite], liteReads, 32, 'sqlite');
  return { one, two, lite };
}

/** Both engines' read paths warmed alike before either is measured (see warmUp). */
async function warmBoth(servers: BenchServers, pgReads: string, liteReads: string): Promise<void> {
  await warmUp(servers.pg, pgReads, 16);
  await warmUp([servers.lite], liteReads, 32);
}

/** `load` is the load average over the run, printed with the first figure. */
export function readFigures(r: Reads, floors: Floors, load: string): BenchFigure[] {
  const s = 'postgres';
  return [
    {
      suite: s,
      name: `reads, 1 process (warehouse inventory, 32 conn; ${load})`,
      value: r.one.rps,
      unit: 'req/s',
      floor: floors.one.rps,
      ratio: r.one.rps / floors.one.rps,
    },
    {
      suite: s,
      name: 'reads, 2 processes (16 conn each)',
      value: r.two.rps,
      unit: 'req/s',
      floor: floors.two.rps,
      ratio: r.two.rps / r.one.rps,
      target: 'ratio: x 1 process',
    },
    {
      suite: s,
      name: 'reads, SQLite, 1 process',
      value: r.lite.rps,
      unit: 'req/s',
      floor: floors.lite.rps,
      ratio: r.lite.rps / floors.lite.rps,
    },
    {
      suite: s,
      name: 'reads, PostgreSQL against SQLite, 1 process each',
      value: r.one.rps,
      unit: 'req/s',
      floor: r.lite.rps,
      ratio: r.one.rps / r.lite.rps,
      target: '>= 0.8x SQLite',
      pass: r.one.rps >= 0.8 * r.lite.rps,
    },
    ...cpuFigures('read', r.one, r.lite),
  ];
}

/**
 * BENCH_POSTGRES_PART=reads: the reads ratio and CPU per read alone, on one process of each engine,
 * PostgreSQL and SQLite alternated twice.
 */
export async function readsAgainstSqlite(servers: BenchServers, pgReads: string, liteReads: string): Promise<BenchFigure[]> {
  const figures: BenchFigure[] = [];
  await warmBoth(servers, pgReads, liteReads);
  for (let round = 1; round <= 2; round++) {
    const before = loadavg()[0]!;
    const pg = await servers.measured([servers.pg[0]!], pgReads, 32, 'postgres');
    const lite = await servers.measured([servers.lite], liteReads, 32, 'sqlite');
    const ratio = pg.rps / lite.rps;
    figures.push(
      {
        suite: 'postgres',
        name: `reads, PostgreSQL against SQLite, 1 process each (run ${round}; load ${before.toFixed(1)}→${loadavg()[0]!.toFixed(1)})`,
        value: pg.rps,
        unit: 'req/s',
        floor: lite.rps,
        ratio,
        target: '>= 0.8x SQLite',
        pass: ratio >= 0.8,
      },
      ...cpuFigures(`read (run ${round})`, pg, lite),
    );
  }
  return figures;
}
