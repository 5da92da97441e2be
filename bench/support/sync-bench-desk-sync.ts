// The sync bench child's main job: the desk's first sync (its worker, as the app runs it), then the
// re-syncs asked for, with the main thread's stalls and, when asked, the memory of each phase.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import BetterSqlite3 from 'better-sqlite3';
import { systemClock } from '@platform/clock';
import { openDeskCache } from '@desk/cache';
import type { SyncEngine } from '@desk/sync/types';
import { createWorkerSyncEngine } from '@desk/sync/worker/host';
import { cpuMsSince, FIRST_SYNC_MARK, jobTokens, peakRssMb, type ChildJob, type ChildResult } from './sync-bench-job';

export async function childSync(job: ChildJob): Promise<Omit<ChildResult, 'maxRssMb'>> {
  const tokens = jobTokens(job);
  const cache = openDeskCache(job.cacheFile);
  // The engine as the desk runs it: in its worker thread, started from the built worker script.
  const engine = createWorkerSyncEngine({
    cacheFile: job.cacheFile,
    baseUrl: job.url,
    tokens,
    cache,
    clock: systemClock,
    installations: () => job.installations,
    workerFile: job.workerFile,
    tuning: { feed: job.feed ?? true },
    // SYNC_BENCH_HISTORY=off: the sync without the registry's history check (which the floors do not make).
    ...(process.env.SYNC_BENCH_HISTORY === 'off' ? { verifyHistory: false } : {}),
    // SYNC_BENCH_THREADS sets the helper threads instead of the desk's default (where a core is free:
    // helper-threads.ts): =both, each on a thread of its own; =here, both on the sync's thread;
    // =no-reader or =no-replay, only that one on the sync's thread. To measure what each thread gives.
    ...threadsOf(process.env.SYNC_BENCH_THREADS),
  });
  const trace = process.env.SYNC_BENCH_TRACE ? traceMemory(engine) : { phase: () => {}, stop: () => {} };
  // How long the main thread (IPC, the web host) is kept from answering while the worker syncs.
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  const result = await engine.run();
  loopDelay.disable();
  const wallMs = performance.now() - started;
  const cpuMs = cpuMsSince(cpuStarted);
  // A first load's deferred indexes are built and its WAL checkpointed after the sync, on its idle
  // worker thread (cache/deferred-indexes.ts, deferred-checkpoint.ts); a running desk re-syncs minutes
  // later, so the re-syncs start once it has ended, and its time is a figure of its own.
  if (job.markFirstSync) process.stderr.write(`${FIRST_SYNC_MARK}\n`);
  trace.phase('checkpoint');
  await engine.background();
  const checkpointMs = performance.now() - started - wallMs;
  const failures = Object.entries(result.results).filter(([, r]) => r.status === 'failed');
  const resyncMs: number[] = [];
  for (const resync of job.resyncs ?? []) {
    if (resync === 'changes') {
      // 100 changes, as the back office makes them: project descriptions edited, in one transaction.
      const registryDb = new BetterSqlite3(job.registryFile);
      registryDb.pragma('busy_timeout = 5000');
      registryDb
        .prepare(
          `UPDATE projects SET short_description = short_description || ' (revised)' WHERE id IN (SELECT id FROM projects ORDER BY id LIMIT 100)`,
        )
        .run();
      registryDb.close();
    }
    trace.phase(`re-sync (${resync})`);
    const t0 = performance.now();
    const again = await engine.run();
    resyncMs.push(performance.now() - t0);
    failures.push(...Object.entries(again.results).filter(([, r]) => r.status === 'failed'));
  }
  trace.phase('closing');
  await engine.close();
  trace.stop();
  const rows = cache.db.raw.prepare('SELECT (SELECT count(*) FROM projects) + (SELECT count(*) FROM retirements)').pluck().get() as number;
  cache.close();
  // Requests are counted by the server (the worker's fetch is its own).
  return {
    wallMs,
    cpuMs,
    resyncMs,
    checkpointMs,
    requests: 0,
    rows,
    ok: failures.length === 0,
    mainThreadStallMs: { p99: loopDelay.percentile(99) / 1e6, max: loopDelay.max / 1e6 },
    ...(failures.length ? { error: JSON.stringify(failures) } : {}),
  };
}

/** The sync worker's threads as `SYNC_BENCH_THREADS` says (unset: as the app runs them). */
function threadsOf(setting: string | undefined): { replayThread?: boolean; pageReaderThread?: boolean } {
  if (setting === undefined) return {};
  if (!['both', 'here', 'no-reader', 'no-replay'].includes(setting))
    throw new Error(`SYNC_BENCH_THREADS=${setting}: expected both, here, no-reader or no-replay`);
  return { replayThread: setting === 'both' || setting === 'no-reader', pageReaderThread: setting === 'both' || setting === 'no-replay' };
}

/**
 * `SYNC_BENCH_TRACE=1`: samples the child's memory every 100 ms and prints, per resource of the
 * first sync and per re-sync, the largest RSS, V8 heap (used / reserved) and memory outside the
 * heap, to find where a peak comes from; and the wall time of each.
 */
function traceMemory(engine: SyncEngine): { phase(name: string): void; stop(): void } {
  let resource = 'start';
  // Once the re-syncs start, phases are named by the bench, not by the runs' progress.
  let phased = false;
  const peaks = new Map<string, Record<string, number>>();
  // Wall time per phase: from its first progress event to the next phase's.
  const walls = new Map<string, number>();
  // CPU time of the process (its threads: mostly the sync worker's) per phase: near the wall, the desk is what waits.
  const cpus = new Map<string, number>();
  let phaseStarted = performance.now();
  let cpuStarted = process.cpuUsage();
  const enter = (name: string) => {
    const now = performance.now();
    const cpu = process.cpuUsage(cpuStarted);
    walls.set(resource, (walls.get(resource) ?? 0) + (now - phaseStarted));
    cpus.set(resource, (cpus.get(resource) ?? 0) + (cpu.user + cpu.system) / 1000);
    phaseStarted = now;
    cpuStarted = process.cpuUsage();
    resource = name;
  };
  const sample = () => {
    const m = process.memoryUsage();
    const mb = (n: number) => Math.round(n / 1048576);
    const now = {
      rss: mb(m.rss),
      heapUsed: mb(m.heapUsed),
      heapTotal: mb(m.heapTotal),
      external: mb(m.external),
      arrayBuffers: mb(m.arrayBuffers),
      // The process's peak so far (catches a peak between samples: compare with the phase before).
      maxRss: Math.round(peakRssMb()),
    };
    const peak = peaks.get(resource) ?? {};
    for (const [k, v] of Object.entries(now)) peak[k] = Math.max(peak[k] ?? 0, v);
    peaks.set(resource, peak);
  };
  const unsubscribe = engine.subscribe((event) => {
    if (!phased && event.type === 'progress' && event.progress.resource !== resource) {
      sample();
      enter(event.progress.resource);
    }
  });
  const timer = setInterval(sample, 100);
  const phase = (name: string) => {
    sample();
    phased = true;
    enter(name);
  };
  const stop = () => {
    sample();
    enter('');
    clearInterval(timer);
    unsubscribe();
    for (const [name, peak] of peaks)
      console.error(
        `memory ${name.padEnd(18)} ${((walls.get(name) ?? 0) / 1000).toFixed(2).padStart(7)} s, cpu ${((cpus.get(name) ?? 0) / 1000).toFixed(2)} s, ${Object.entries(
          peak,
        )
          .map(([k, v]) => `${k} ${v} MB`)
          .join(', ')}`,
      );
  };
  return { phase, stop };
}
