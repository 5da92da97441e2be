// Sync benchmark: the first full sync of a --scale N demo registry (default 100: ~10,000 projects,
// ~100,000 retirements) over loopback into an empty desk cache, in a child process so its peak RSS
// is its own; beside a floor measured in the same run (the same requests downloaded without
// processing, and the same rows inserted with one prepared statement in one transaction); then a
// no-change re-sync and search latency on the synced cache. The same from the registry's changes
// feed (its floor: the feed's pages downloaded and their items inserted raw), a re-sync after 100
// changes, and the registry's CPU while 100 desks poll the feed every 10 s with nothing changed
// (`SYNC_BENCH_POLL_MS`, default 30 s of polling).
// `SYNC_BENCH_SCALE=5 npm run bench -- sync` for a quick run; `SYNC_BENCH_ROUNDS=N` runs the
// feed's first sync N times (default 3), each after its own floor with the log;
// `SYNC_BENCH_FEED_ONLY=1` skips the seed interface's runs (minutes at scale 100);
// `SYNC_BENCH_SEED_ONLY=1` the feed's (and the polling);
// `SYNC_BENCH_HISTORY=off` syncs without the desk's check of the registry's history;
// `SYNC_BENCH_THREADS=both|here|no-reader|no-replay` sets the sync worker's helper threads (default:
// the desk's, a thread where a core is free for it).
import type { BenchFigure, BenchSuite } from './types';
import { runChildOf } from './support/sync-bench-process';
import type { ChildJob, ChildResult } from './support/sync-bench-job';
import { searchTimes } from './support/cache-search-times';
import { percentile } from './support/percentile';

// Where the network bench imports the child's parts from.
export { FIRST_SYNC_MARK, type ChildJob, type ChildResult } from './support/sync-bench-job';
export { runChildOf } from './support/sync-bench-process';

export const suite: BenchSuite = {
  name: 'sync',
  async run(): Promise<BenchFigure[]> {
    const scale = Number(process.env.SYNC_BENCH_SCALE ?? 100);
    const { startSyncWorld, must } = await import('./support/sync-world');
    const world = await startSyncWorld(scale, 'Sync bench');
    const { registry } = world;
    const runChild = async (job: ChildJob) => {
      const registryCpu = process.cpuUsage();
      const result = await runChildOf(world.childFile, job);
      const { user, system } = process.cpuUsage(registryCpu);
      return { ...result, registryCpuMs: (user + system) / 1000 };
    };
    const job = world.job;
    try {
      const seedCache = world.cacheFile('cache.sqlite');
      const feedCache = world.cacheFile('feed-cache.sqlite');
      // SYNC_BENCH_NO_FLOOR=1 skips the floors while investigating the sync itself (no ratio then).
      const noFloor: ChildResult = { wallMs: NaN, maxRssMb: NaN, requests: 0, rows: 0, ok: true };
      // SYNC_BENCH_FEED_ONLY=1 measures the changes feed alone (the seed interface's figures then say "not run").
      const feedOnly = Boolean(process.env.SYNC_BENCH_FEED_ONLY);
      // SYNC_BENCH_SEED_ONLY=1 the seed interface alone (the feed's figures and the polling then say "not run").
      const seedOnly = !feedOnly && Boolean(process.env.SYNC_BENCH_SEED_ONLY);
      const notRun: ChildResult = { ...noFloor, resyncMs: [NaN, NaN], mainThreadStallMs: { p99: NaN, max: NaN } };
      // A floor that failed stops the run with its error: its result (0 s) would print as a floor.
      const floor =
        process.env.SYNC_BENCH_NO_FLOOR || feedOnly
          ? noFloor
          : must(await runChild(job('floor', world.cacheFile('floor.sqlite'))), 'floor');
      const feedFloor =
        process.env.SYNC_BENCH_NO_FLOOR || seedOnly
          ? noFloor
          : must(await runChild(job('feedFloor', world.cacheFile('feed-floor.sqlite'))), "the feed's floor");
      // The seed interface (the fallback for registries without the feed); its desk re-syncs as a
      // running desk does (its worker already started).
      const first = feedOnly
        ? notRun
        : must(await runChild({ ...job('sync', seedCache), feed: false, resyncs: ['again'] }), 'sync (seed interface)');
      // The desk checks the registry's history on its first sync: beside the feed's floor, one that
      // also downloads and hashes the whole log (SYNC_BENCH_HISTORY=off: the sync does not check).
      const checksHistory = process.env.SYNC_BENCH_HISTORY !== 'off';
      const withLog = !(process.env.SYNC_BENCH_NO_FLOOR || seedOnly || !checksHistory);
      // The feed's first sync in rounds, each right after its own floor with the log: this machine's
      // speed drifts by tens of percent within minutes, and the floor (one request after another)
      // slows more than the sync (both cores busy), so a ratio holds only against a floor of the same
      // minutes. The figure is the median round's; the last round's desk also re-syncs.
      const rounds = seedOnly ? 0 : roundsOf(process.env.SYNC_BENCH_ROUNDS);
      const feedRounds: FeedRound[] = [];
      for (let round = 0; round < rounds; round++) {
        const last = round === rounds - 1;
        const floorWithLog = !withLog
          ? noFloor
          : must(
              await runChild({ ...job('feedFloor', world.cacheFile(`feed-floor-log-${round}.sqlite`)), replayLog: true }),
              "the feed's floor with the log",
            );
        const sync = must(
          await runChild({
            ...job('sync', last ? feedCache : world.cacheFile(`feed-cache-${round}.sqlite`)),
            resyncs: last ? ['again', 'changes'] : [],
            registryFile: world.registryFile,
          }),
          'sync (feed)',
        );
        feedRounds.push({ floorWithLog, sync });
        // CPU beside each wall: the registry's (this process) and the desk's, for where a round's time went
        const seconds = (ms: number | undefined) => ((ms ?? NaN) / 1000).toFixed(2);
        console.log(
          `feed round ${round + 1} of ${rounds}: first sync ${seconds(sync.wallMs)} s (CPU: desk ${seconds(sync.cpuMs)} s, ` +
            `registry ${seconds(sync.registryCpuMs)} s${last ? ', re-syncs included' : ''}), floor with the log ` +
            `${seconds(floorWithLog.wallMs)} s (desk ${seconds(floorWithLog.cpuMs)} s, registry ${seconds(floorWithLog.registryCpuMs)} s), ` +
            `ratio ${(sync.wallMs / floorWithLog.wallMs).toFixed(2)}`,
        );
      }
      const feedFirst = feedRounds.at(-1)?.sync ?? notRun;

      // 100 desks polling a registry with no changes: the registry's (this process's) CPU meanwhile.
      const { currentSequence, encodeCursor } = await import('../electron/core/registry/queries/changes');
      const end = encodeCursor({ seq: currentSequence(registry), kind: '~', key: '', at: registry.clock.now(), snapshotOf: -1 });
      const pollMs = seedOnly ? 0 : Number(process.env.SYNC_BENCH_POLL_MS ?? 30_000);
      // SYNC_BENCH_POLL_MS=0 skips the polling: a share of a core over no time is no figure.
      const polls = pollMs > 0;
      const cpuBefore = process.cpuUsage();
      const pollStarted = performance.now();
      const poll = !polls
        ? { ...notRun, requests: 0 }
        : must(
            await runChild({
              ...job('poll', world.cacheFile('unused.sqlite')),
              poll: { desks: 100, intervalMs: 10_000, durationMs: pollMs, cursor: end },
            }),
            'polling',
          );
      const cpu = process.cpuUsage(cpuBefore);
      const pollCpuPercent = !polls ? NaN : ((cpu.user + cpu.system) / 1000 / (performance.now() - pollStarted)) * 100;

      const times = searchTimes(feedOnly ? feedCache : seedCache);
      console.log(
        `scale ${scale}: ${first.rows} project+retirement rows synced; the floor made ${floor.requests} requests, ` +
          `the feed's floor ${feedFloor.requests}; ${poll.requests} polls in ${(pollMs / 1000).toFixed(0)} s`,
      );
      const runs: SyncRuns = { floor, feedFloor, feedRounds, checksHistory, first, feedFirst, pollCpuPercent, times };
      return [...feedFigures(scale, runs), ...seedFigures(scale, runs)];
    } finally {
      await world.close();
    }
  },
};

/** What the suite's runs measured, for its figures. */
interface SyncRuns {
  floor: ChildResult;
  feedFloor: ChildResult;
  /** The feed's first syncs, each beside its floor with the log (the last one's desk re-synced). */
  feedRounds: FeedRound[];
  checksHistory: boolean;
  first: ChildResult;
  feedFirst: ChildResult;
  pollCpuPercent: number;
  times: number[];
}

/** One round of the feed's first sync: its floor with the log, then the sync. */
interface FeedRound {
  floorWithLog: ChildResult;
  sync: ChildResult;
}

/** SYNC_BENCH_ROUNDS: how many rounds of floor-then-sync the feed's ratio is the median of (default 3). */
function roundsOf(text: string | undefined): number {
  const rounds = Number(text ?? 3);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`SYNC_BENCH_ROUNDS must be a whole number of at least 1, not "${text}"`);
  return rounds;
}

/** The median round's figure (nearest rank, as every bench's p50: a round's own value; NaN for none, not run). */
const median = (values: number[]): number => percentile(values, 50);

/** The figures of the first sync from the changes feed, its re-syncs and the polling desks. */
function feedFigures(scale: number, { feedFloor, feedRounds, checksHistory, feedFirst, pollCpuPercent }: SyncRuns): BenchFigure[] {
  const firstWallMs = median(feedRounds.map((r) => r.sync.wallMs));
  const feedRatio = firstWallMs / feedFloor.wallMs;
  // (NaN when the feed was not run, SYNC_BENCH_SEED_ONLY: no figure, and no pass)
  const peakRssMb = feedRounds.length === 0 ? NaN : Math.max(...feedRounds.map((r) => r.sync.maxRssMb));
  const roundRatio = median(feedRounds.map((r) => r.sync.wallMs / r.floorWithLog.wallMs));
  const feedAgain = { wallMs: feedFirst.resyncMs![0]! };
  const feedChanged = { wallMs: feedFirst.resyncMs![1]! };
  return [
    {
      suite: 'sync',
      name: `first full sync from the changes feed, scale ${scale} (wall, the median round's)`,
      value: firstWallMs / 1000,
      unit: 's',
      floor: feedFloor.wallMs / 1000,
      ratio: feedRatio,
      target: '<= 15 s',
      pass: firstWallMs <= 15_000,
    },
    ...(checksHistory
      ? [
          {
            suite: 'sync',
            name: `the same, against a floor that also downloads and hashes the log (median of ${feedRounds.length} rounds)`,
            value: firstWallMs / 1000,
            unit: 's',
            floor: median(feedRounds.map((r) => r.floorWithLog.wallMs)) / 1000,
            ratio: roundRatio,
            target: '<= 1.15x floor',
            pass: roundRatio <= 1.15,
          },
        ]
      : []),
    {
      suite: 'sync',
      name: "first sync from the feed, the desk's CPU (all its threads)",
      value: (feedFirst.cpuMs ?? NaN) / 1000,
      unit: 's',
      floor: (feedFloor.cpuMs ?? NaN) / 1000,
      ratio: (feedFirst.cpuMs ?? NaN) / (feedFloor.cpuMs ?? NaN),
    },
    {
      suite: 'sync',
      name: "the registry's CPU meanwhile (the sync's re-syncs included)",
      value: (feedFirst.registryCpuMs ?? NaN) / 1000,
      unit: 's',
      floor: (feedFloor.registryCpuMs ?? NaN) / 1000,
    },
    {
      suite: 'sync',
      name: 'first sync from the feed, peak RSS (the largest round)',
      value: peakRssMb,
      unit: 'MB',
      floor: feedFloor.maxRssMb,
      target: '< 300 MB',
      pass: peakRssMb < 300,
    },
    {
      suite: 'sync',
      name: "first sync's deferred indexes and checkpoint, in the background after it (wall)",
      value: (feedFirst.checkpointMs ?? NaN) / 1000,
      unit: 's',
    },
    {
      suite: 'sync',
      name: 'no-change re-sync from the feed (wall)',
      value: feedAgain.wallMs / 1000,
      unit: 's',
      target: '<= 0.5 s',
      pass: feedAgain.wallMs <= 500,
    },
    {
      suite: 'sync',
      name: 're-sync from the feed after 100 changes (wall)',
      value: feedChanged.wallMs / 1000,
      unit: 's',
      target: '<= 1 s',
      pass: feedChanged.wallMs <= 1000,
    },
    {
      suite: 'sync',
      name: '100 desks polling the feed every 10 s, no changes: registry CPU',
      value: pollCpuPercent,
      unit: '% of a core',
      target: '< 5 %',
      // not run (SYNC_BENCH_SEED_ONLY, SYNC_BENCH_POLL_MS=0): no verdict
      pass: Number.isNaN(pollCpuPercent) ? undefined : pollCpuPercent < 5,
    },
  ];
}

/** The figures of the first sync through the seed interface, its re-sync, and searching the cache. */
function seedFigures(scale: number, { floor, first, times }: SyncRuns): BenchFigure[] {
  const ratio = first.wallMs / floor.wallMs;
  const again = { wallMs: first.resyncMs![0]! };
  const p95 = percentile(times, 95);
  return [
    {
      suite: 'sync',
      name: `first full sync through the seed interface, scale ${scale} (wall)`,
      value: first.wallMs / 1000,
      unit: 's',
      floor: floor.wallMs / 1000,
      ratio,
      target: '<= 1.3x floor',
      pass: ratio <= 1.3,
    },
    {
      suite: 'sync',
      name: 'first sync through the seed interface, peak RSS',
      value: first.maxRssMb,
      unit: 'MB',
      floor: floor.maxRssMb,
      target: '< 400 MB',
      pass: first.maxRssMb < 400,
    },
    { suite: 'sync', name: 'main-thread stall during the first sync, p99', value: first.mainThreadStallMs?.p99 ?? NaN, unit: 'ms' },
    { suite: 'sync', name: 'main-thread stall during the first sync, max', value: first.mainThreadStallMs?.max ?? NaN, unit: 'ms' },
    {
      suite: 'sync',
      name: 'no-change re-sync through the seed interface (wall)',
      value: again.wallMs / 1000,
      unit: 's',
      ratio: again.wallMs / first.wallMs,
      target: '< 30% of first',
      pass: again.wallMs < 0.3 * first.wallMs,
    },
    { suite: 'sync', name: `cache search p95 (${times.length} queries)`, value: p95, unit: 'ms', target: '< 20 ms', pass: p95 < 20 },
    { suite: 'sync', name: 'cache search p50', value: percentile(times, 50), unit: 'ms' },
    { suite: 'sync', name: 'cache search max', value: Math.max(...times), unit: 'ms' },
  ];
}
