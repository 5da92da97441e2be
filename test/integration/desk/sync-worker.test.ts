// The sync engine in its worker thread (electron/core/desk/sync/worker): the same results as on
// the main thread, tokens asked of the main thread, out-of-memory retried with a larger heap or
// reported with the cache intact, a close in the middle of a run leaving the cache usable, a
// first sync's load checkpointed by its idle thread once the run has answered (its deferred
// indexes built first; host-checkpoints.test.ts has the other cases), and the history replayed on
// a thread of its own.
import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { RegistryClientError } from '@desk/client/errors';
import type { TokenManager } from '@desk/client/tokens';
import type { SyncTuning } from '@desk/sync/context';
import type { SyncEngine, SyncEngineEvent } from '@desk/sync/types';
import { createWorkerSyncEngine, type SyncWorkerSettings } from '@desk/sync/worker/host';
import { helperScript } from '@desk/sync/worker/page-reader';
import { addVolume, startDeskWorld, type DeskWorld } from '@test/support/desk-support';
import { historyStatus } from '@desk/verification/status';
import { logSize } from '@registry/transparency/tree';
import { builtEntry } from '@scripts/build-web-desk';

// The worker as the desk ships it: bundled by the tier's global setup (test/support/build-node-bundles.ts).
// From its TypeScript source through tsx every worker, reader and replay thread compiled the engine
// again (~2 s of CPU each); the first test still starts it from source, the path of the web desk under tsx.
const BUILT_WORKER = builtEntry('sync-worker');

let world: DeskWorld | undefined;
const engines: SyncEngine[] = [];
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.close();
  await world?.close();
  world = undefined;
});

function workerEngine(
  w: DeskWorld,
  settings: SyncWorkerSettings & { tokens?: TokenManager; log?: (line: string) => void; tuning?: Partial<SyncTuning> } = {},
): SyncEngine {
  const engine = createWorkerSyncEngine({
    cacheFile: join(w.cacheDir.dir, 'cache.sqlite'),
    baseUrl: w.t.url,
    tokens: settings.tokens ?? w.tokens,
    cache: w.cache,
    clock: w.t.clock,
    installations: () => w.installations,
    tuning: { pageSize: 20, feed: false },
    workerFile: BUILT_WORKER,
    ...settings,
  });
  engines.push(engine);
  return engine;
}

describe('the sync in a worker thread', () => {
  it('fills every resource as the in-process engine does, asking the main thread for tokens', async () => {
    world = await startDeskWorld({ projects: 30, retirements: 250 });
    const asked: string[] = [];
    const tokens: TokenManager = {
      ...world.tokens,
      get: (scope) => (asked.push(scope.kind), world!.tokens.get(scope)),
      grant: (scope) => (asked.push(`grant:${scope.kind}`), world!.tokens.grant(scope)),
    };
    const engine = workerEngine(world, { tokens, workerFile: undefined });
    const events: SyncEngineEvent[] = [];
    engine.subscribe((e) => events.push(e));

    const running = engine.run();
    expect(engine.status().running).toBe(true);
    const result = await running;
    expect(result.ok, JSON.stringify(result.results)).toBe(true);

    // The main thread's cache connection sees what the worker wrote.
    const { cache, f } = world;
    expect(cache.searchProjects({ scope: 'public', limit: 500 }).total).toBe(31);
    expect(cache.searchProjects({ scope: 'internal', limit: 500 }).total).toBe(32);
    expect(cache.searchRetirements({ limit: 10 }).total).toBe(250);
    expect(cache.getWarehouse(f.orgA)?.canWrite).toBe(true);
    expect(cache.getProject(f.projectId)?.credits?.vintages.map((v) => v.vintage)).toEqual(['2022']);
    // each token asked once, then kept by the worker until it nears its expiry (not once per request)
    expect(asked.filter((a) => a === 'grant:app')).toHaveLength(1);
    expect(asked.filter((a) => a === 'grant:installation')).toHaveLength(1);
    expect(asked.filter((a) => !a.startsWith('grant:'))).toEqual([]);

    const progress = new Set(events.flatMap((e) => (e.type === 'progress' ? [e.progress.resource] : [])));
    expect(progress).toEqual(
      new Set(['projects', 'internalProjects', 'projectDetails', 'credits', 'inventories', 'retirements', 'warehouses', 'organizations']),
    );
    const finished = events.find((e) => e.type === 'finished');
    expect(finished?.type === 'finished' && finished.status.running).toBe(false);
    expect(Object.values(engine.status().lastSuccess).every((t) => t !== null)).toBe(true);
    expect(engine.status().running).toBe(false);

    // A second run reuses the worker and finds nothing to write.
    const again = await engine.run(['projects', 'retirements']);
    expect(again.results.projects).toMatchObject({ status: 'ok', written: 0 });
    expect(again.results.retirements).toMatchObject({ status: 'ok', written: 0 });

    // The grant kept: a pass asks the examiner grant with it (pass.ts), not with a token of its own.
    expect(asked.filter((a) => a === 'grant:app')).toHaveLength(1);

    // The main thread's tokens cleared (the key re-imported): the worker drops the grants it kept.
    world.tokens.clear();
    await engine.run(['warehouses']);
    expect(asked.filter((a) => a === 'grant:installation')).toHaveLength(2);
  });

  it('drops a token the registry refused and asks the main thread for a new one', async () => {
    world = await startDeskWorld({ projects: 20 });
    const engine = workerEngine(world);
    expect((await engine.run(['projects', 'internalProjects'])).ok).toBe(true);
    expect(world.requests.get('/app/accessTokens')).toBe(1);
    // The token the worker keeps, revoked behind its back (as another process or the operator
    // would), between two runs: revoked during a run, it could land after the run's last request
    // (the run's pages are asked ahead), and nothing would be refused.
    const token = await world.tokens.get({ kind: 'app' });
    const revoked = await fetch(`${world.t.url}/app/installations/token`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(revoked.ok).toBe(true);
    // the next run's first request is refused, then asked again with a new token
    const result = await engine.run(['projects', 'internalProjects']);
    expect(result.ok, JSON.stringify(result.results)).toBe(true);
    expect(world.requests.get('/app/accessTokens')).toBe(2);
  });

  it('keeps using a grant that nears its expiry while the main thread cannot get a new one', async () => {
    world = await startDeskWorld({ projects: 5 });
    let unreachable = false;
    const tokens: TokenManager = {
      ...world.tokens,
      // The main thread's token requests fail, as when the registry's token endpoint is unreachable.
      grant: (scope) =>
        unreachable && scope.kind === 'installation'
          ? Promise.reject(new RegistryClientError('network', 'the registry is unreachable', { endpoint: 'createInstallationAccessToken' }))
          : world!.tokens.grant(scope),
    };
    const engine = workerEngine(world, { tokens });
    expect((await engine.run(['warehouses'])).ok).toBe(true);
    // The installation token lives 2 h: at 1 h 56 min it is due for replacing, but still valid.
    world.t.clock.advance(116 * 60 * 1000);
    unreachable = true;
    const nearExpiry = await engine.run(['warehouses']);
    expect(nearExpiry.results.warehouses, JSON.stringify(nearExpiry.results)).toMatchObject({ status: 'ok' });
    // Once it has expired, the failure is reported.
    world.t.clock.advance(5 * 60 * 1000);
    expect((await engine.run(['warehouses'])).results.warehouses).toMatchObject({ status: 'failed' });
  });

  it('retries a run that ran out of memory in a new worker with twice the heap', async () => {
    world = await startDeskWorld({ projects: 5, retirements: 20 });
    const log: string[] = [];
    // 2 MB cannot even load the engine: the worker dies of it, and the run goes on at 4, 8, 16 … MB.
    const engine = workerEngine(world, { heapLimitMb: 2, maxHeapLimitMb: 256, log: (line) => log.push(line) });
    const result = await engine.run(['projects', 'retirements']);
    expect(result.ok, JSON.stringify(result.results)).toBe(true);
    expect(log[0]).toMatch(/ran out of its 2 MB heap; retrying in a new worker with 4 MB/);
    expect(world.cache.searchRetirements({}).total).toBe(20);
  });

  it('reports a run that runs out of memory at the largest heap as failed, and keeps the cache and its success times', async () => {
    world = await startDeskWorld({ projects: 5, retirements: 20 });
    const good = workerEngine(world);
    expect((await good.run(['retirements'])).ok).toBe(true);
    const before = world.cache.lastSuccess().retirements;
    await good.close();

    const starved = workerEngine(world, { heapLimitMb: 2, maxHeapLimitMb: 4 });
    const events: SyncEngineEvent[] = [];
    starved.subscribe((e) => events.push(e));
    const result = await starved.run(['retirements']);
    expect(result.ok).toBe(false);
    expect(result.results.retirements).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/ran out of memory \(heap limit 4 MB\)/),
    });
    expect(starved.status()).toMatchObject({ running: false, lastError: expect.stringMatching(/ran out of memory/) });
    expect(events.some((e) => e.type === 'finished' && !e.result.ok)).toBe(true);
    expect(world.cache.searchRetirements({}).total).toBe(20);
    expect(world.cache.lastSuccess().retirements).toBe(before);
    expect(world.cache.syncState('retirements')?.last_error).toMatch(/ran out of memory/);
  });

  it('abandons a run when closed in the middle, leaving the cache writable and complete for the next run', async () => {
    world = await startDeskWorld({ projects: 40, retirements: 300 });
    const first = workerEngine(world);
    const midway = new Promise<void>((resolve) =>
      first.subscribe((e) => e.type === 'progress' && e.progress.resource === 'projectDetails' && e.progress.done >= 5 && resolve()),
    );
    const running = first.run();
    await midway;
    await first.close();
    const abandoned = await running;
    expect(abandoned.ok).toBe(false);
    expect(Object.values(abandoned.results).every((r) => r.status === 'failed' && /stopped/.test(r.error))).toBe(true);

    // No transaction of the ended thread holds the database: the main thread writes at once.
    world.cache.write.markFailure('organizations', 'written after the worker ended');
    const next = workerEngine(world);
    const completed = await next.run();
    expect(completed.ok, JSON.stringify(completed.results)).toBe(true);
    expect(world.cache.searchRetirements({}).total).toBe(300);
    expect(world.cache.searchProjects({ scope: 'internal', limit: 1 }).total).toBe(42);
  });

  it('reports offline when the registry cannot be reached, and the run changes nothing', async () => {
    world = await startDeskWorld({ projects: 3, retirements: 5 });
    const engine = workerEngine(world);
    expect((await engine.run()).ok).toBe(true);
    const before = world.cache.lastSuccess();
    const online: boolean[] = [];
    engine.subscribe((e) => e.type === 'online' && online.push(e.online));
    world.tokens.clear();
    await world.t.server.close();
    const result = await engine.run();
    expect(result).toMatchObject({ ok: false, offline: true });
    expect(online).toEqual([false]);
    expect(engine.status().online).toBe(false);
    expect(world.cache.lastSuccess()).toEqual(before);
  });

  it('replays the history on a thread of its own: verified, then a rewritten record refused', async () => {
    world = await startDeskWorld({ projects: 5, retirements: 40 });
    const w = world;
    // Every replay on its thread, however short (in the app only those of 10,000 leaves or more, on a
    // machine of two cores or more: helper-threads.ts). Through the seed interface: the feed's first
    // sync may start its page reader's thread too.
    const engine = workerEngine(w, { replayThread: true, replayThreadLeaves: 1 });
    expect((await engine.run()).ok).toBe(true);
    const entries = logSize(w.t.registry);
    expect(historyStatus(w.cache.db)).toMatchObject({ state: 'verified', entries, pending: 0, evidence: 0 });

    // A logged movement changed behind the registry's back: its leaf no longer gives the signed root.
    addVolume(w.t.registry, w.f, { retirements: 2 });
    w.t.clock.advance(5_000);
    const db = w.t.registry.db;
    for (const { name } of db.prepare(`SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'movements'`).all() as {
      name: string;
    }[])
      db.prepare(`DROP TRIGGER ${name}`).run();
    db.prepare('UPDATE movements SET amount = amount + 1 WHERE id = (SELECT MAX(id) FROM movements)').run();
    const before = w.cache.countRetirements();
    const refused = await engine.run();
    expect(refused.ok).toBe(false);
    expect(engine.status().lastError).toMatch(/a record was changed after it was logged/);
    expect(w.cache.countRetirements()).toBe(before);
    expect(historyStatus(w.cache.db)).toMatchObject({ state: 'failed', entries, evidence: 1 });
    // (the sync worker and then its replay thread each compile their TypeScript through tsx: ~20 s at load 18)
  }, 60_000);

  it('checkpoints a first sync from the feed once the run has answered, and waits for it when closed', async () => {
    world = await startDeskWorld({ projects: 30, retirements: 250 });
    const file = join(world.cacheDir.dir, 'cache.sqlite');
    const before = statSync(file).size;
    // (its pages read on the reader's thread, which this machine may have no core free for by default)
    const engine = workerEngine(world, { tuning: { feed: true }, pageReaderThread: true });
    const result = await engine.run();
    expect(result.results.retirements).toMatchObject({ status: 'ok', note: expect.stringMatching(/loaded directly/) });
    await engine.close();
    // The load went into the WAL at its commit; the database file holds it once the checkpoint
    // has run (the WAL is too small for an automatic checkpoint, and the main thread's connection,
    // still open, has written nothing).
    const pageSize = world.cache.db.raw.pragma('page_size', { simple: true }) as number;
    expect(statSync(`${file}-wal`).size).toBeLessThan(1000 * pageSize);
    expect(statSync(file).size).toBeGreaterThan(before + 500_000);
    expect(world.cache.searchRetirements({ limit: 10 }).total).toBe(250);
    // The retirements' indexes, which the load left to build after its commit, were built before
    // the checkpoint (cache/deferred-indexes.ts).
    const raw = world.cache.db.raw;
    expect(raw.prepare('SELECT count(*) FROM deferred_indexes').pluck().get()).toBe(0);
    expect(raw.prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name LIKE 'retirements_by_%'").pluck().get()).toBe(7);
  });

  it('starts its helper threads from the built helper, which holds none of the engine', () => {
    // The page reader and the history replay (the tests above run both from it) start from the
    // file beside the built worker: one started from the worker's own script evaluated the engine
    // and the cache too (6 MB and 0.18 s of CPU more per thread, bench/README.md).
    expect(helperScript(BUILT_WORKER)).toEqual({ file: builtEntry('sync-helper') });
    // The helper's code: its file and every chunk it imports, however deep.
    const loaded = new Map<string, string>();
    const load = (file: string) => {
      if (loaded.has(file)) return;
      const code = readFileSync(file, 'utf8');
      loaded.set(file, code);
      for (const [, chunk] of code.matchAll(/from "(\.{1,2}\/[^"]+)"/g)) load(join(dirname(file), chunk!));
    };
    load(builtEntry('sync-helper'));
    const helper = [...loaded.values()].join('\n');
    expect(helper).toContain('function servePageReader');
    expect(helper).toContain('function serveLeafReplay');
    // (the bundle's chunks may put smaller shared modules beside the helpers' own, such as the registry client)
    for (const engineOnly of ['function createSyncEngine', 'function openDeskCache']) expect(helper).not.toContain(engineOnly);
    // A build without the helper's file starts them from the worker's script, which serves their jobs too.
    const elsewhere = join(BUILT_WORKER, '..', 'no-such-build', 'sync-worker.js');
    expect(helperScript(elsewhere)).toEqual({ file: elsewhere });
  });
});
