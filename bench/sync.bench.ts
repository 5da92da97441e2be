// Sync benchmark: the first full sync of a --scale N demo registry (default 100: ~10,000 projects,
// ~100,000 retirements) over loopback into an empty desk cache, in a child process so its peak RSS
// is its own; beside a floor measured in the same run (the same requests downloaded without
// processing, and the same rows inserted with one prepared statement in one transaction); then a
// no-change re-sync and search latency on the synced cache. The same from the registry's changes
// feed (its floor: the feed's pages downloaded and their items inserted raw), a re-sync after 100
// changes, and the registry's CPU while 100 desks poll the feed every 10 s with nothing changed
// (`SYNC_BENCH_POLL_MS`, default 30 s of polling).
// `SYNC_BENCH_SCALE=5 npm run bench -- sync` for a quick run; `SYNC_BENCH_FEED_ONLY=1` skips the
// seed interface's runs (minutes at scale 100); `SYNC_BENCH_SEED_ONLY=1` the feed's (and the polling);
// `SYNC_BENCH_HISTORY=off` syncs without the desk's check of the registry's history;
// `SYNC_BENCH_THREADS=here|no-reader|no-replay` keeps the sync worker's helper threads off.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import BetterSqlite3 from 'better-sqlite3';
import type { BenchFigure, BenchSuite } from './types';
import { systemClock } from '../electron/core/platform/clock';
import { createTokenManager } from '../electron/core/desk/client/tokens';
import { openDeskCache } from '../electron/core/desk/cache';
import type { InstallationRef } from '../electron/core/desk/sync/context';
import type { SyncEngine } from '../electron/core/desk/sync/types';
import { createWorkerSyncEngine } from '../electron/core/desk/sync/worker/host';
import { forEachLimited } from '../electron/core/desk/sync/concurrency';
import { replayLogFloor } from './support/log-replay-floor';

export interface ChildJob {
  mode: 'sync' | 'floor' | 'feedFloor' | 'poll';
  /** The sync: from the changes feed when the registry offers it (false: the seed interface only). */
  feed?: boolean;
  /**
   * The sync's runs after the first, in the same desk (worker): 'again' with nothing changed,
   * 'changes' after 100 project changes written into `registryFile` (as the back office would).
   */
  resyncs?: ('again' | 'changes')[];
  registryFile?: string;
  /** Polling: desks, each asking the feed from `cursor` every `intervalMs` for `durationMs`. */
  poll?: { desks: number; intervalMs: number; durationMs: number; cursor: string };
  url: string;
  appId: string;
  privateKeyPem: string;
  cacheFile: string;
  installations: InstallationRef[];
  /** out/main/sync-worker.js, built by the parent before the runs. */
  workerFile: string;
  /** The feed's floor only: also replay the transparency log (bench/support/log-replay-floor.ts). */
  replayLog?: boolean;
  /** Say on stderr when the first sync has ended (the network bench counts its bytes). */
  markFirstSync?: boolean;
}

/** The line a child writes on stderr when its first sync has ended (`markFirstSync`). */
export const FIRST_SYNC_MARK = '@@sync-bench: first sync done';
export interface ChildResult {
  wallMs: number;
  /** CPU time (user + system) of the child's threads over `wallMs`: on a shared machine, the figure that holds still. */
  cpuMs?: number;
  /** CPU time of the parent (the registry's server) while the child ran, its re-syncs included (set by the parent). */
  registryCpuMs?: number;
  maxRssMb: number;
  /** Requests made (the floor's; the sync's worker makes its own and is not counted). */
  requests: number;
  /** Event-loop delay of the main thread during the sync (ms). */
  mainThreadStallMs?: { p99: number; max: number };
  rows: number;
  ok: boolean;
  error?: string;
  /** Wall time of each re-sync of `resyncs`. */
  resyncMs?: number[];
  /** How long the first sync's checkpoint ran on after it (in a worker of its own). */
  checkpointMs?: number;
}

// ---- the child side ------------------------------------------------------------------------------

/** CPU time (user + system, every thread of this process) since `start`, in ms. */
function cpuMsSince(start: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1000;
}

/**
 * This process's own peak RSS (MB). Not resourceUsage().maxRSS: on Linux a child's ru_maxrss starts
 * from its parent's RSS when it was forked (kept across exec), so the child of a bench process that
 * serves a --scale 100 registry reported that process's RSS (up to 517 MB) whenever it was the
 * larger. /proc/self/status's VmHWM is the peak of this process's own memory since exec.
 */
function peakRssMb(): number {
  try {
    const hwm = /^VmHWM:\s*(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (hwm) return Number(hwm[1]) / 1024;
  } catch {
    // not Linux: the OS's own figure
  }
  return process.resourceUsage().maxRSS / 1024;
}

async function childSync(job: ChildJob): Promise<Omit<ChildResult, 'maxRssMb'>> {
  const tokens = createTokenManager({
    baseUrl: job.url,
    appId: job.appId,
    loadPrivateKey: async () => job.privateKeyPem,
    clock: systemClock,
  });
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
    // SYNC_BENCH_THREADS=here: the history replay and the feed's page reader on the sync's thread
    // (=no-reader or =no-replay: only that one), to measure what each thread saves.
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
  // A first load's WAL is checkpointed after the sync, in a worker of its own
  // (cache/deferred-checkpoint.ts); a running desk re-syncs minutes later, so the re-syncs start
  // once it has ended, and its time is a figure of its own.
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
function threadsOf(setting: string | undefined): { replayThreadLeaves?: number; pageReaderThread?: boolean } {
  if (setting === undefined) return {};
  return {
    ...(setting === 'here' || setting === 'no-replay' ? { replayThreadLeaves: Number.MAX_SAFE_INTEGER } : {}),
    ...(setting === 'here' || setting === 'no-reader' ? { pageReaderThread: false } : {}),
  };
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

/** The floor: the same requests, bodies kept as text, rows inserted raw with one statement in one transaction. */
async function childFloor(job: ChildJob): Promise<Omit<ChildResult, 'maxRssMb'>> {
  const tokens = createTokenManager({
    baseUrl: job.url,
    appId: job.appId,
    loadPrivateKey: async () => job.privateKeyPem,
    clock: systemClock,
  });
  const token = await tokens.get({ kind: 'app' });
  const installationToken = job.installations[0]
    ? await tokens.get({ kind: 'installation', installationId: job.installations[0].id })
    : token;
  let requests = 0;
  const get = async (path: string, bearer = token) => {
    requests++;
    const res = await fetch(`${job.url}${path}`, { headers: { authorization: `Bearer ${bearer}` } });
    if (!res.ok) throw new Error(`${path}: ${res.status}`);
    return res.text();
  };
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  // SYNC_BENCH_TRACE=1: the wall time of each part, to set beside the sync's per resource.
  let lap = started;
  const phase = (name: string) => {
    if (process.env.SYNC_BENCH_TRACE)
      console.error(`floor ${name.padEnd(18)} ${((performance.now() - lap) / 1000).toFixed(2).padStart(7)} s`);
    lap = performance.now();
  };
  const rows: [string, string][] = [];
  const pages = async (path: string, key: string) => {
    for (let page = 0; ; page++) {
      const items = (JSON.parse(await get(`${path}?limit=100&page=${page}`)) as Record<string, { id: string }[]>)[key]!;
      for (const item of items) rows.push([item.id, JSON.stringify(item)]);
      if (items.length < 100) return items;
    }
  };
  await pages('/projects', 'projects');
  const before = rows.length;
  await pages('/projects/internal', 'projects');
  phase('project lists');
  const ids = rows.slice(before).map(([id]) => id);
  await forEachLimited(ids, 8, async (id) => {
    rows.push([`d:${id}`, await get(`/projects/internal/${id}`)]);
    rows.push([`c:${id}`, await get(`/carbonCredits/projects/${id}`)]);
  });
  phase('details + credits');
  for (const account of ['buffer', 'adjustment', 'organization'])
    rows.push([account, await get(`/carbonCredits/icr/inventory/${account}`)]);
  phase('inventories');
  await pages('/v1/retirements', 'retirements');
  phase('retirements');
  for (const i of job.installations) {
    rows.push([`w:${i.organizationId}`, await get(`/organizations/${i.organizationId}/warehouse/inventory`, installationToken)]);
    await pages(`/organizations/${i.organizationId}/warehouse/inventory/reservations`, 'reservations').catch(() => []);
  }
  phase('warehouses');
  // The organizations the sync asks for: every proponent of a project, and the installed ones
  // (with their installation's token, as the sync does), eight at a time; one the app may not see is a 404.
  const installedToken = new Map(job.installations.map((i) => [i.organizationId, installationToken]));
  const proponents = rows
    .slice(before, before + ids.length)
    .flatMap(([, json]) => (JSON.parse(json) as { proponents: { id: string }[] }).proponents.map((p) => p.id));
  await forEachLimited([...new Set([...installedToken.keys(), ...proponents])], 8, async (id) => {
    const text = await get(`/v1/organizations/${id}`, installedToken.get(id)).catch((error: Error) => {
      if (!error.message.endsWith(': 404')) throw error;
      return null;
    });
    if (text !== null) rows.push([`o:${id}`, text]);
  });
  phase('organizations');
  const db = new BetterSqlite3(job.cacheFile);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE rows (id TEXT, json TEXT)');
  const insert = db.prepare('INSERT INTO rows (id, json) VALUES (?, ?)');
  db.transaction(() => {
    for (const [id, json] of rows) insert.run(id, json);
  })();
  db.close();
  phase('inserts');
  return { wallMs: performance.now() - started, cpuMs: cpuMsSince(cpuStarted), requests, rows: rows.length, ok: true };
}

/** The feed's floor: the same feed pages downloaded as text, their items inserted raw in one transaction. */
async function childFeedFloor(job: ChildJob): Promise<Omit<ChildResult, 'maxRssMb'>> {
  const tokens = createTokenManager({
    baseUrl: job.url,
    appId: job.appId,
    loadPrivateKey: async () => job.privateKeyPem,
    clock: systemClock,
  });
  const token = await tokens.get({ kind: 'app' });
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  const db = new BetterSqlite3(job.cacheFile);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE rows (id TEXT, json TEXT)');
  const insert = db.prepare('INSERT INTO rows (id, json) VALUES (?, ?)');
  let requests = 0;
  let rows = 0;
  let cursor = '';
  for (;;) {
    requests++;
    // Uncompressed, as the desk asks a registry on its own machine (client/http.ts).
    const url = `${job.url}/sync/v1/changes?limit=1000&cursor=${encodeURIComponent(cursor)}`;
    const init = { headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'identity' } };
    // Once more after a network failure, as the desk's client does: the registry may have closed
    // the kept-alive connection while this floor inserted the page before (a loaded machine).
    const res = await fetch(url, init).catch(() => fetch(url, init));
    if (!res.ok) throw new Error(`feed: ${res.status}`);
    const page = JSON.parse(await res.text()) as { changes: Record<string, unknown>[]; cursor: string; more: boolean };
    db.transaction(() => {
      for (const item of page.changes) insert.run(String(item.type), JSON.stringify(item));
    })();
    rows += page.changes.length;
    cursor = page.cursor;
    if (!page.more) break;
  }
  db.close();
  if (job.replayLog) requests += (await replayLogFloor(job.url)).requests;
  return { wallMs: performance.now() - started, cpuMs: cpuMsSince(cpuStarted), requests, rows, ok: true };
}

/** `desks` desks polling the feed from the current end, each every `intervalMs`, for `durationMs`. */
async function childPoll(job: ChildJob): Promise<Omit<ChildResult, 'maxRssMb'>> {
  const { desks, intervalMs, durationMs, cursor } = job.poll!;
  const tokens = createTokenManager({
    baseUrl: job.url,
    appId: job.appId,
    loadPrivateKey: async () => job.privateKeyPem,
    clock: systemClock,
  });
  const token = await tokens.get({ kind: 'app' });
  const started = performance.now();
  let requests = 0;
  let failures = 0;
  await Promise.all(
    Array.from({ length: desks }, async (_, i) => {
      // Desks start spread over one interval, as independent desks would.
      let next = started + (i * intervalMs) / desks;
      while (next < started + durationMs) {
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - performance.now())));
        requests++;
        const res = await fetch(`${job.url}/sync/v1/changes?cursor=${encodeURIComponent(cursor)}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        const page = (await res.json()) as { changes?: unknown[] };
        if (!res.ok || page.changes?.length !== 0) failures++;
        next += intervalMs;
      }
    }),
  );
  return {
    wallMs: performance.now() - started,
    requests,
    rows: 0,
    ok: failures === 0,
    ...(failures ? { error: `${failures} polls failed` } : {}),
  };
}

if (process.argv[2] === '--sync-bench-child') {
  let input = '';
  for await (const chunk of process.stdin) input += chunk;
  const job = JSON.parse(input) as ChildJob;
  const run = { sync: childSync, floor: childFloor, feedFloor: childFeedFloor, poll: childPoll }[job.mode];
  const result = await run(job).catch((e: unknown) => ({
    wallMs: 0,
    requests: 0,
    rows: 0,
    ok: false,
    error: String(e),
  }));
  process.stdout.write(`${JSON.stringify({ ...result, maxRssMb: peakRssMb() })}\n`);
  process.exit(0);
}

// ---- the parent side -----------------------------------------------------------------------------

/** Runs one job in a child process; `onMark` hears the marks it writes on stderr (the rest is passed on). */
export function runChildOf(childFile: string, job: ChildJob, onMark?: (mark: string) => void): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    // The key goes through stdin, never the command line.
    // SYNC_BENCH_NODE_FLAGS (e.g. "--max-semi-space-size=32") tries V8 settings on the child only.
    const flags = (process.env.SYNC_BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
    const child = spawn(process.execPath, [...flags, childFile, '--sync-bench-child'], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    if (!onMark) child.stderr.pipe(process.stderr);
    else
      createInterface({ input: child.stderr }).on('line', (line) =>
        line.startsWith('@@sync-bench') ? onMark(line) : process.stderr.write(`${line}\n`),
      );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => {
      try {
        resolve(JSON.parse(out.trim().split('\n').pop()!) as ChildResult);
      } catch {
        reject(new Error(`sync bench child exited with ${code}: ${out.slice(0, 500)}`));
      }
    });
    child.stdin.end(JSON.stringify(job));
  });
}

/** Builds the app (electron-vite) so out/main/sync-worker.js is current, and returns its path. */
export function buildSyncWorker(): string {
  const root = join(import.meta.dirname, '..');
  const built = spawnSync(process.execPath, [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const file = join(root, 'out', 'main', 'sync-worker.js');
  if (built.status !== 0 || !existsSync(file)) throw new Error('building the app (electron-vite build) failed; see above');
  return file;
}

/**
 * This file bundled for Node (vite SSR, as `npm run build:web` bundles the web desk), so the child
 * runs as the desk ships, not under tsx: tsx's loader thread and its compiled modules took ~60 MB of
 * the child's RSS, which the peak-RSS figure is about the sync's own. Returns the bundle's path.
 */
export async function buildBenchChild(): Promise<string> {
  const outDir = join(import.meta.dirname, '..', 'out', 'bench');
  // (imported here, not at the top: the bundled child must not load vite)
  const { bundleForNode } = await import('../scripts/build-web-desk');
  await bundleForNode({ 'sync-bench-child': import.meta.filename }, outDir);
  return join(outDir, 'sync-bench-child.js');
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Search latency on a synced cache: typing sequences, filters, sorts, deep pages. */
function searchTimes(cacheFile: string): number[] {
  const cache = openDeskCache(cacheFile);
  const times: number[] = [];
  const time = (fn: () => unknown) => {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  };
  const words = [
    'k',
    'ki',
    'kil',
    'fore',
    'forest',
    'solar',
    'm',
    'ma',
    'man',
    'mangrove',
    'a',
    'an',
    'ann',
    'anna',
    'mü',
    'mull',
    'icr',
    'icr-',
    '20',
    '2022',
    'brazil',
    'ken',
    'cook',
    'wind',
  ];
  for (let round = 0; round < 3; round++) {
    for (const q of words) {
      time(() => cache.searchProjects({ query: q, scope: 'internal', limit: 100 }));
      time(() => cache.searchProjects({ query: q, sort: { field: 'relevance', direction: 'asc' } }));
      time(() => cache.searchRetirements({ query: q, limit: 100 }));
      time(() => cache.searchRetirements({ query: q, sort: { field: 'amount', direction: 'desc' } }));
    }
    for (const field of ['num', 'name', 'status', 'country', 'startDate'] as const) {
      time(() => cache.searchProjects({ sort: { field, direction: 'desc' }, offset: 5000, limit: 100 }));
      time(() => cache.searchProjects({ filters: { countryCode: 'BR' }, sort: { field, direction: 'asc' } }));
    }
    for (const field of ['createdAt', 'amount', 'beneficiary', 'project'] as const) {
      time(() => cache.searchRetirements({ sort: { field, direction: 'asc' }, offset: 50_000, limit: 100 }));
      time(() => cache.searchRetirements({ filters: { claimed: true, vintage: '2020' }, sort: { field, direction: 'desc' } }));
    }
    time(() => cache.searchProjects({ filters: { vintage: '2021' } }));
    time(() => cache.projectFacets('internal'));
  }
  cache.close();
  return times;
}

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
      // The desk checks the registry's history on its first sync: beside the feed's floor, one that
      // also downloads and hashes the whole log (SYNC_BENCH_HISTORY=off: the sync does not check).
      const checksHistory = process.env.SYNC_BENCH_HISTORY !== 'off';
      const feedFloorWithLog =
        process.env.SYNC_BENCH_NO_FLOOR || seedOnly || !checksHistory
          ? noFloor
          : must(
              await runChild({ ...job('feedFloor', world.cacheFile('feed-floor-log.sqlite')), replayLog: true }),
              "the feed's floor with the log",
            );
      // The seed interface (the fallback for registries without the feed), then the feed; each
      // desk re-syncs as a running desk does (its worker already started).
      const first = feedOnly
        ? notRun
        : must(await runChild({ ...job('sync', seedCache), feed: false, resyncs: ['again'] }), 'sync (seed interface)');
      const feedFirst = seedOnly
        ? notRun
        : must(
            await runChild({ ...job('sync', feedCache), resyncs: ['again', 'changes'], registryFile: world.registryFile }),
            'sync (feed)',
          );
      const again = { wallMs: first.resyncMs![0]! };
      const feedAgain = { wallMs: feedFirst.resyncMs![0]! };
      const feedChanged = { wallMs: feedFirst.resyncMs![1]! };

      // 100 desks polling a registry with no changes: the registry's (this process's) CPU meanwhile.
      const { currentSequence, encodeCursor } = await import('../electron/core/registry/queries/changes');
      const end = encodeCursor({ seq: currentSequence(registry), kind: '~', key: '', at: registry.clock.now(), snapshotOf: -1 });
      const pollMs = seedOnly ? 0 : Number(process.env.SYNC_BENCH_POLL_MS ?? 30_000);
      const cpuBefore = process.cpuUsage();
      const pollStarted = performance.now();
      const poll = seedOnly
        ? { ...notRun, requests: 0 }
        : must(
            await runChild({
              ...job('poll', world.cacheFile('unused.sqlite')),
              poll: { desks: 100, intervalMs: 10_000, durationMs: pollMs, cursor: end },
            }),
            'polling',
          );
      const cpu = process.cpuUsage(cpuBefore);
      const pollCpuPercent = seedOnly ? NaN : ((cpu.user + cpu.system) / 1000 / (performance.now() - pollStarted)) * 100;

      const times = searchTimes(feedOnly ? feedCache : seedCache);
      console.log(
        `scale ${scale}: ${first.rows} project+retirement rows synced; the floor made ${floor.requests} requests, ` +
          `the feed's floor ${feedFloor.requests}; ${poll.requests} polls in ${(pollMs / 1000).toFixed(0)} s`,
      );
      const ratio = first.wallMs / floor.wallMs;
      const feedRatio = feedFirst.wallMs / feedFloor.wallMs;
      const p95 = percentile(times, 95);
      return [
        {
          suite: 'sync',
          name: `first full sync from the changes feed, scale ${scale} (wall)`,
          value: feedFirst.wallMs / 1000,
          unit: 's',
          floor: feedFloor.wallMs / 1000,
          ratio: feedRatio,
          target: '<= 15 s',
          pass: feedFirst.wallMs <= 15_000,
        },
        ...(checksHistory
          ? [
              {
                suite: 'sync',
                name: 'the same, against a floor that also downloads and hashes the log',
                value: feedFirst.wallMs / 1000,
                unit: 's',
                floor: feedFloorWithLog.wallMs / 1000,
                ratio: feedFirst.wallMs / feedFloorWithLog.wallMs,
                target: '<= 1.15x floor',
                pass: feedFirst.wallMs / feedFloorWithLog.wallMs <= 1.15,
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
          name: 'first sync from the feed, peak RSS',
          value: feedFirst.maxRssMb,
          unit: 'MB',
          floor: feedFloor.maxRssMb,
          target: '< 300 MB',
          pass: feedFirst.maxRssMb < 300,
        },
        {
          suite: 'sync',
          name: "first sync's checkpoint, in the background after it (wall)",
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
          pass: pollCpuPercent < 5,
        },
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
    } finally {
      await world.close();
    }
  },
};
