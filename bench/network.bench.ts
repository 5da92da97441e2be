// Network bench: the desk's first sync (from the changes feed, and through the seed interface) and a
// no-change re-sync, each in a desk of its own (a child process, its engine in its worker thread as
// the app runs it), through a loopback TCP proxy that delays every chunk (test/support/delaying-proxy.ts)
// at RTT 0, 50 and 150 ms, and at 50 ms on a 20 Mbit/s line; each figure beside its RTT-0 one.
// Also the bytes on the wire per first sync, and each path straight to the registry (no proxy,
// as the desk reaches a registry on its own machine: node:http, uncompressed).
//
// The proxy listens on this machine's own network address when it has one: to the desk that is a
// registry elsewhere (fetch, compressed answers), as over the internet. `NETWORK_BENCH_SCALE`
// (default 10: 1,000 projects, ~11,500 project and retirement rows) sets the registry's size;
// `NETWORK_BENCH_RTT=0,150` (a comma list of RTTs in ms) runs only those plain links and not the
// straight run, for a quick comparison.
// Beside each first sync's wall: the desk's CPU (every thread of its process) and this process's
// (the registry and the proxy's thread), since on a shared machine CPU time holds still where
// walls do not.
//
// The seed path is also counted in round trips (support/network-round-trips.ts: answers held until
// every request in flight is answered), a figure a loaded machine does not move;
// `NETWORK_BENCH_ROUND_TRIPS=only` prints that count and runs nothing else.
//
// The RTT 0, 50 and 150 ms links run `NETWORK_BENCH_ROUNDS` times (default 3), round by round, so a
// slow minute of the machine weighs on every link alike: each round's ratios are printed, and the
// figure (and its verdict) is the median round's. Each run's phases are logged from the requests the
// proxy hears (support/network-phases.ts): when each phase asked its first and last request, and
// how many round trips later than at RTT 0 it ended. The proxy runs on a thread of its own, apart
// from the registry's server in this process, as a link is; beside the phases the log gives its own
// lag (support/network-lag.ts): how much later than due it passed chunks on, which a real link never
// does.
import { networkInterfaces } from 'node:os';
import type { BenchFigure, BenchSuite } from './types';
import { FIRST_SYNC_MARK, runChildOf, type ChildJob, type ChildResult } from './sync.bench';
import { phaseLines, phaseLog, type PhaseSpan } from './support/network-phases';
import { seedRoundTrips } from './support/network-round-trips';
import { lagLines } from './support/network-lag';
import type { LinkLag } from '@test/support/delaying-proxy';

interface Link {
  name: string;
  rttMs: number;
  bitsPerSecond?: number;
  /** Listen on 127.0.0.1: the desk then sees a registry on this machine (node:http, uncompressed). */
  loopback?: boolean;
  /** Run once, not every round (its figure is not a target's). */
  once?: boolean;
}

const LINKS: Link[] = [
  { name: 'RTT 0', rttMs: 0 },
  { name: 'RTT 50 ms', rttMs: 50 },
  { name: 'RTT 150 ms', rttMs: 150 },
  { name: 'RTT 50 ms, 20 Mbit/s', rttMs: 50, bitsPerSecond: 20_000_000, once: true },
  // The bytes the same sync moves uncompressed, beside the compressed RTT-0 run's.
  { name: 'RTT 0, uncompressed (loopback address)', rttMs: 0, loopback: true, once: true },
];

/** Targets of issue 31, for the seed interface's first sync: its ratio to its RTT-0 figure. */
const SEED_TARGETS: Record<string, number> = { 'RTT 50 ms': 1.3, 'RTT 150 ms': 1.6 };

/** This machine's first non-internal IPv4 address (a "remote" registry to the desk), else loopback. */
function ownAddress(): string {
  for (const addresses of Object.values(networkInterfaces()))
    for (const a of addresses ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  return '127.0.0.1';
}

interface PathRun {
  first: ChildResult;
  /** Bytes from the registry to the desk during the first sync (null: no proxy). */
  bytesDown: number | null;
  /** CPU time of this process (the registry's server and the proxy) during the first sync. */
  serverCpuMs: number;
  /** The first sync's requests by phase (null: no proxy). */
  phases: Map<string, PhaseSpan> | null;
  /** The proxy's own lag during the first sync, by phase (empty: no proxy). */
  lagLines: string[];
}

/** The middle value (the lower middle of an even count). */
const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

/**
 * The links `NETWORK_BENCH_RTT` names (all when unset; when set, only the plain links of those
 * RTTs, without the capped line or the uncompressed run); RTT 0 comes first, the others' yardstick.
 */
function chosenLinks(): Link[] {
  const rtts = process.env.NETWORK_BENCH_RTT?.split(',').map(Number);
  return rtts ? LINKS.filter((link) => rtts.includes(link.rttMs) && !link.once) : LINKS;
}

/** Runs `job` in a bench child; `onFirstSync` is called when its first sync has ended. */
async function timedChild(childFile: string, job: ChildJob, onFirstSync: () => void = () => {}) {
  const cpuStarted = process.cpuUsage();
  let serverCpuMs = NaN;
  const first = await runChildOf(childFile, job, (mark) => {
    if (mark !== FIRST_SYNC_MARK) return;
    const { user, system } = process.cpuUsage(cpuStarted);
    serverCpuMs = (user + system) / 1000;
    onFirstSync();
  });
  return { first, serverCpuMs };
}

/** One run's line in the log: its wall, its ratio to its round's RTT-0 run, and the round trips it added. */
function runLine(path: string, round: number, link: Link, run: PathRun, base: PathRun): string {
  const added = run.first.wallMs - base.first.wallMs;
  const trips = link.rttMs > 0 ? `, ${(added / link.rttMs).toFixed(1)} round trips added` : '';
  const cpu = ((run.first.cpuMs ?? NaN) / 1000).toFixed(2);
  return `${path}, round ${round + 1}, ${link.name}: ${(run.first.wallMs / 1000).toFixed(2)} s (desk CPU ${cpu} s), ${(run.first.wallMs / base.first.wallMs).toFixed(2)}x RTT 0${trips}`;
}

/** A link's figures: those of its median run (by its ratio to its round's RTT-0 run; RTT 0 itself by wall). */
function linkFigures(path: string, feed: boolean, link: Link, runs: PathRun[], bases: PathRun[]): BenchFigure[] {
  const s = 'network';
  const ratios = runs.map((run, round) => run.first.wallMs / (bases[round] ?? run).first.wallMs);
  const key = runs.every((run, round) => bases[round] === run) ? runs.map((run) => run.first.wallMs) : ratios;
  const round = key.indexOf(median(key));
  const run = runs[round]!;
  const base = bases[round] ?? run;
  const ratio = ratios[round]!;
  const target = feed ? undefined : SEED_TARGETS[link.name];
  const of = runs.length > 1 ? ` (median of ${runs.length}: ${ratios.map((r) => r.toFixed(2)).join(', ')})` : '';
  const again = run.first.resyncMs?.[0] ?? NaN;
  const againBase = base.first.resyncMs?.[0] ?? NaN;
  const figures: BenchFigure[] = [
    { suite: s, name: `${path}: first sync, ${link.name}, desk CPU`, value: (run.first.cpuMs ?? NaN) / 1000, unit: 's' },
    { suite: s, name: `${path}: first sync, ${link.name}, registry and proxy CPU`, value: run.serverCpuMs / 1000, unit: 's' },
    {
      suite: s,
      name: `${path}: first sync, ${link.name} (wall)${of}`,
      value: run.first.wallMs / 1000,
      unit: 's',
      floor: base.first.wallMs / 1000,
      ratio,
      ...(target !== undefined ? { target: `<= ${target}x RTT 0`, pass: ratio <= target } : {}),
    },
    {
      suite: s,
      name: `${path}: no-change re-sync, ${link.name} (wall)`,
      value: again / 1000,
      unit: 's',
      floor: againBase / 1000,
      ratio: again / againBase,
    },
    { suite: s, name: `${path}: first sync, ${link.name}, peak RSS`, value: run.first.maxRssMb, unit: 'MB' },
  ];
  if (link.rttMs === 0 || link.loopback)
    figures.push({
      suite: s,
      name: `${path}: first sync, ${link.name}, bytes on the wire`,
      value: (run.bytesDown ?? NaN) / 1048576,
      unit: 'MiB',
    });
  return figures;
}

export const suite: BenchSuite = {
  name: 'network: first sync and re-sync through a delaying proxy',
  async run(): Promise<BenchFigure[]> {
    const scale = Number(process.env.NETWORK_BENCH_SCALE ?? 10);
    // NETWORK_BENCH_PATHS=seed (or feed) runs one path only.
    const only = process.env.NETWORK_BENCH_PATHS;
    const { startDelayingProxy } = await import('../test/support/delaying-proxy');
    const { startSyncWorld, must } = await import('./support/sync-world');
    const world = await startSyncWorld(scale, 'Network bench');
    const target = new URL(world.url);
    const host = ownAddress();
    let runs = 0;
    const job = (url: string, feed: boolean): ChildJob => ({
      ...world.job('sync', world.cacheFile(`cache-${runs++}.sqlite`)),
      url,
      feed,
      resyncs: ['again'],
      markFirstSync: true,
    });
    const through = async (link: Link | null, feed: boolean): Promise<PathRun> => {
      if (link === null) {
        const { first, serverCpuMs } = await timedChild(world.childFile, job(world.url, feed));
        return { first: must(first, 'direct sync'), bytesDown: null, serverCpuMs, phases: null, lagLines: [] };
      }
      const log = phaseLog();
      const proxy = await startDelayingProxy({
        target: { host: target.hostname, port: Number(target.port) },
        rttMs: link.rttMs,
        host: link.loopback ? '127.0.0.1' : host,
        ...(link.bitsPerSecond ? { bitsPerSecond: link.bitsPerSecond } : {}),
        onRequest: log.hear,
      });
      try {
        let bytesDown: number | null = null;
        let endedMs = NaN;
        let lag: Promise<LinkLag> | null = null;
        const { first, serverCpuMs } = await timedChild(world.childFile, job(proxy.url, feed), () => {
          bytesDown = proxy.bytesDown;
          endedMs = performance.now();
          lag = proxy.lag();
        });
        must(first, `sync over ${link.name}`);
        // The proxy's thread answers after it has sent every request it heard before: the log is complete.
        const linkLag = await lag!;
        return { first, bytesDown, serverCpuMs, phases: log.spans(endedMs), lagLines: lagLines(link.name, linkLag, endedMs) };
      } finally {
        await proxy.close();
      }
    };

    const figures: BenchFigure[] = [];
    const s = 'network';
    const cpuFigures = (path: string, linkName: string, run: PathRun): BenchFigure[] => [
      { suite: s, name: `${path}: first sync, ${linkName}, desk CPU`, value: (run.first.cpuMs ?? NaN) / 1000, unit: 's' },
      { suite: s, name: `${path}: first sync, ${linkName}, registry and proxy CPU`, value: run.serverCpuMs / 1000, unit: 's' },
    ];
    try {
      console.log(
        `scale ${scale}; the proxy listens on ${host}${host === '127.0.0.1' ? ' (no network address: the desk sees loopback)' : ''}`,
      );
      for (const [path, feed] of [
        ['seed interface', false],
        ['changes feed', true],
      ] as const) {
        if (only !== undefined && !path.includes(only)) continue;
        if (!feed) {
          const counted = await seedRoundTrips({ ...job(world.url, false), resyncs: [] });
          console.log(`${path}: first sync in round trips (answers held per round trip): ${counted.total}${counted.ok ? '' : ', FAILED'}`);
          for (const [name, span] of counted.phases)
            console.log(`  ${name.padEnd(14)} round trips ${span.firstMs}..${span.lastMs}, ${span.requests} requests`);
          figures.push({ suite: s, name: `${path}: first sync, round trips on the critical path`, value: counted.total, unit: '' });
          if (process.env.NETWORK_BENCH_ROUND_TRIPS === 'only') continue;
        }
        // Straight to the registry (skipped by a quick comparison, NETWORK_BENCH_RTT).
        const direct = process.env.NETWORK_BENCH_RTT === undefined ? await through(null, feed) : null;
        if (direct)
          figures.push(
            { suite: s, name: `${path}: first sync, straight to the registry (wall)`, value: direct.first.wallMs / 1000, unit: 's' },
            { suite: s, name: `${path}: first sync, straight, peak RSS`, value: direct.first.maxRssMb, unit: 'MB' },
            ...cpuFigures(path, 'straight', direct),
          );
        // Each link's runs, round by round; a round's RTT-0 run is its links' yardstick.
        const runs = new Map<Link, PathRun[]>();
        const bases: PathRun[] = [];
        const rounds = Math.max(1, Number(process.env.NETWORK_BENCH_ROUNDS ?? 3));
        for (let round = 0; round < rounds; round++) {
          for (const link of chosenLinks()) {
            if (link.once && round > 0) continue;
            const run = await through(link, feed);
            if (link === chosenLinks()[0]) bases[round] = run;
            const base = bases[round] ?? run;
            runs.set(link, [...(runs.get(link) ?? []), run]);
            console.log(runLine(path, round, link, run, base));
            if (run.phases) for (const line of phaseLines(link.name, link.rttMs, run.phases, base.phases ?? undefined)) console.log(line);
            for (const line of run.lagLines) console.log(line);
          }
        }
        for (const [link, linkRuns] of runs) figures.push(...linkFigures(path, feed, link, linkRuns, bases));
      }
      return figures;
    } finally {
      await world.close();
    }
  },
};
