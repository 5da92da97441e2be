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
// `NETWORK_BENCH_RTT=0` (a comma list of RTTs in ms) runs only those links, for a quick comparison.
// Beside each first sync's wall: the desk's CPU (every thread of its process) and this process's
// (the registry and the proxy), since on a shared machine CPU time holds still where walls do not.
import { networkInterfaces } from 'node:os';
import type { BenchFigure, BenchSuite } from './types';
import { FIRST_SYNC_MARK, runChildOf, type ChildJob, type ChildResult } from './sync.bench';

interface Link {
  name: string;
  rttMs: number;
  bitsPerSecond?: number;
  /** Listen on 127.0.0.1: the desk then sees a registry on this machine (node:http, uncompressed). */
  loopback?: boolean;
}

const LINKS: Link[] = [
  { name: 'RTT 0', rttMs: 0 },
  { name: 'RTT 50 ms', rttMs: 50 },
  { name: 'RTT 150 ms', rttMs: 150 },
  { name: 'RTT 50 ms, 20 Mbit/s', rttMs: 50, bitsPerSecond: 20_000_000 },
  // The bytes the same sync moves uncompressed, beside the compressed RTT-0 run's.
  { name: 'RTT 0, uncompressed (loopback address)', rttMs: 0, loopback: true },
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
}

/** The links `NETWORK_BENCH_RTT` names (all when unset); RTT 0 comes first, the others' yardstick. */
function chosenLinks(): Link[] {
  const rtts = process.env.NETWORK_BENCH_RTT?.split(',').map(Number);
  return rtts ? LINKS.filter((link) => rtts.includes(link.rttMs)) : LINKS;
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
        return { first: must(first, 'direct sync'), bytesDown: null, serverCpuMs };
      }
      const proxy = await startDelayingProxy({
        target: { host: target.hostname, port: Number(target.port) },
        rttMs: link.rttMs,
        host: link.loopback ? '127.0.0.1' : host,
        ...(link.bitsPerSecond ? { bitsPerSecond: link.bitsPerSecond } : {}),
      });
      try {
        let bytesDown: number | null = null;
        const { first, serverCpuMs } = await timedChild(world.childFile, job(proxy.url, feed), () => (bytesDown = proxy.bytesDown));
        return { first: must(first, `sync over ${link.name}`), bytesDown, serverCpuMs };
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
        const direct = await through(null, feed);
        figures.push(
          { suite: s, name: `${path}: first sync, straight to the registry (wall)`, value: direct.first.wallMs / 1000, unit: 's' },
          { suite: s, name: `${path}: first sync, straight, peak RSS`, value: direct.first.maxRssMb, unit: 'MB' },
          ...cpuFigures(path, 'straight', direct),
        );
        let base: PathRun | undefined;
        for (const link of chosenLinks()) {
          const run = await through(link, feed);
          figures.push(...cpuFigures(path, link.name, run));
          base ??= run;
          const ratio = run.first.wallMs / base.first.wallMs;
          const target = feed ? undefined : SEED_TARGETS[link.name];
          figures.push({
            suite: s,
            name: `${path}: first sync, ${link.name} (wall)`,
            value: run.first.wallMs / 1000,
            unit: 's',
            floor: base.first.wallMs / 1000,
            ratio,
            ...(target !== undefined ? { target: `<= ${target}x RTT 0`, pass: ratio <= target } : {}),
          });
          const again = run.first.resyncMs?.[0] ?? NaN;
          const againBase = base.first.resyncMs?.[0] ?? NaN;
          figures.push({
            suite: s,
            name: `${path}: no-change re-sync, ${link.name} (wall)`,
            value: again / 1000,
            unit: 's',
            floor: againBase / 1000,
            ratio: again / againBase,
          });
          if (link.rttMs === 0 || link.loopback) {
            figures.push(
              {
                suite: s,
                name: `${path}: first sync, ${link.name}, bytes on the wire`,
                value: (run.bytesDown ?? NaN) / 1048576,
                unit: 'MiB',
              },
              { suite: s, name: `${path}: first sync, ${link.name}, peak RSS`, value: run.first.maxRssMb, unit: 'MB' },
            );
          } else {
            figures.push({ suite: s, name: `${path}: first sync, ${link.name}, peak RSS`, value: run.first.maxRssMb, unit: 'MB' });
          }
        }
      }
      return figures;
    } finally {
      await world.close();
    }
  },
};
