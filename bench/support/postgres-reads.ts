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
      name: 'reads, PostgreSQL against SQLite, 1 process each (one run: BENCH_POSTGRES_PART=reads takes the median of several)',
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

/** Runs of BENCH_POSTGRES_PART=reads (BENCH_READS_RUNS; odd, so the median is one run's). */
const READ_RUNS = Number(process.env.BENCH_READS_RUNS ?? 5);

/** One run of the reads ratio: PostgreSQL, then SQLite, and the load around them. */
interface ReadRun {
  pg: Measured;
  lite: Measured;
  ratio: number;
  load: string;
}

/**
 * BENCH_POSTGRES_PART=reads: the reads ratio and CPU per read alone, on one process of each engine,
 * PostgreSQL and SQLite alternated READ_RUNS times. Between runs the ratio swings with the machine
 * (±0.07 idle), so one run is no verdict: every run is printed, then the verdict on the median run
 * and, since the target holds only if it holds in each run, on the lowest.
 */
export async function readsAgainstSqlite(servers: BenchServers, pgReads: string, liteReads: string): Promise<BenchFigure[]> {
  const runs: ReadRun[] = [];
  await warmBoth(servers, pgReads, liteReads);
  for (let round = 1; round <= READ_RUNS; round++) {
    const before = loadavg()[0]!;
    const pg = await servers.measured([servers.pg[0]!], pgReads, 32, 'postgres');
    const lite = await servers.measured([servers.lite], liteReads, 32, 'sqlite');
    runs.push({ pg, lite, ratio: pg.rps / lite.rps, load: `${before.toFixed(1)}→${loadavg()[0]!.toFixed(1)}` });
  }
  return [...runs.flatMap((run, i) => runFigures(run, `run ${i + 1} of ${runs.length}`)), ...verdicts(runs)];
}

function runFigures(run: ReadRun, what: string): BenchFigure[] {
  return [
    {
      suite: 'postgres',
      name: `reads, PostgreSQL against SQLite, 1 process each (${what}; load ${run.load})`,
      value: run.pg.rps,
      unit: 'req/s',
      floor: run.lite.rps,
      ratio: run.ratio,
    },
    ...cpuFigures(`read (${what})`, run.pg, run.lite),
  ];
}

/** The verdicts: the median run's ratio, and the lowest run's (the target in every run). */
function verdicts(runs: ReadRun[]): BenchFigure[] {
  const sorted = [...runs].sort((a, b) => a.ratio - b.ratio);
  const median = sorted[Math.floor((sorted.length - 1) / 2)]!;
  const lowest = sorted[0]!;
  const reached = runs.filter((r) => r.ratio >= 0.8).length;
  const verdict = (run: ReadRun, which: string): BenchFigure => ({
    suite: 'postgres',
    name: `reads, PostgreSQL against SQLite: ${which} of ${runs.length} runs (0.8x reached in ${reached})`,
    value: run.pg.rps,
    unit: 'req/s',
    floor: run.lite.rps,
    ratio: run.ratio,
    target: '>= 0.8x SQLite',
    pass: run.ratio >= 0.8,
  });
  return [verdict(median, 'median'), verdict(lowest, 'lowest')];
}
