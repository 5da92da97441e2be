// The desk verifies its registry's history at every sync (electron/core/desk/verification/), against
// the registry's real HTTP server on a SQLite file: a verified re-sync asks one checkpoint and one
// page of new leaves (no proof per record); then each way the history can be falsified — a row
// rewritten behind the registry's back, a forked checkpoint, a truncated log, a new key — is caught,
// kept as evidence, said plainly, and the sync writes nothing (the cache keeps what was verified).
import { generateKeyPairSync } from 'node:crypto';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { addVolume, startDeskWorld, type DeskWorld } from '@test/support/desk-support';
import type { FetchLike } from '@desk/client/http';
import { createSyncEngine } from '@desk/sync/engine';
import type { SyncTuning } from '@desk/sync/context';
import { createHistoryCheck } from '@desk/verification/history-check';
import { historyEvidence, historyStatus } from '@desk/verification/status';
import { HISTORY_CHANGED } from '@desk/verification/check';
import { openRegistry } from '@registry/open';
import { startRegistryServer } from '@registry/http/server';
import { logKey, rawPublicKey } from '@registry/transparency/keys';
import { logSize as registryLogSize } from '@registry/transparency/tree';
import { checkpointBody, formatSignedNote } from '@shared/transparency/note';
import { toBase64 } from '@shared/transparency/bytes';
import { makeDataDir, type TestRegistry } from '@test/support/registry';
import { openDeskCache } from '@desk/cache';

let world: DeskWorld | undefined;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
  await world?.close();
  world = undefined;
});

const logSize = (t: TestRegistry) => registryLogSize(t.registry);

/** Drops the guards a database holder can drop (the append-only triggers) on a table. */
function dropGuards(t: TestRegistry, table: string) {
  const db = t.registry.db;
  for (const { name } of db.prepare(`SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ?`).all(table) as {
    name: string;
  }[])
    db.prepare(`DROP TRIGGER ${name}`).run();
}

/** New retirements, and time for the registry to sign a checkpoint covering them. */
function grow(w: DeskWorld, retirements = 1) {
  addVolume(w.t.registry, w.f, { retirements });
  w.t.clock.advance(5_000);
}

/**
 * Stops the registry's server, lets `change` work on its closed data folder, and serves the folder
 * again on the same port (the desk's connection does not change): the registry as whoever holds
 * its files can make it.
 */
async function restartAfter(w: DeskWorld, change: (dir: string) => void) {
  const port = Number(new URL(w.t.url).port);
  await w.t.server.close();
  w.t.registry.close();
  change(w.t.dir);
  const reopened = openRegistry({ dataDir: w.t.dir, clock: w.t.clock });
  const server = await startRegistryServer({ registry: reopened, port, background: false });
  cleanups.push(async () => {
    await server.close();
    reopened.close();
  });
  return reopened;
}

/** A second engine on `w` whose history check fetches through `fetch` (a wrapper of the real one), closed after the test. */
function engineFetchingThrough(w: DeskWorld, fetch: FetchLike, tuning?: Partial<SyncTuning>) {
  const engine = createSyncEngine({
    client: w.client,
    cache: w.cache,
    clock: w.t.clock,
    installations: () => w.installations,
    ...(tuning ? { tuning } : {}),
    history: createHistoryCheck({ baseUrl: w.t.url, cache: w.cache, clock: w.t.clock, fetch }),
  });
  cleanups.push(() => engine.close());
  return engine;
}

async function verifiedWorld(): Promise<DeskWorld> {
  world = await startDeskWorld({ retirements: 3, tuning: { feed: false } });
  const first = await world.engine.run();
  expect(first.ok).toBe(true);
  expect(historyStatus(world.cache.db)).toMatchObject({ state: 'verified', entries: logSize(world.t), pending: 0, evidence: 0 });
  return world;
}

/** The run after the registry's history was falsified: refused, said plainly, nothing written. */
async function expectRefused(w: DeskWorld, kind: string, detail: RegExp) {
  const before = w.cache.countRetirements();
  const result = await w.engine.run();
  expect(result.ok).toBe(false);
  expect(result.offline, w.engine.status().lastError ?? undefined).toBe(false);
  expect(Object.values(result.results).every((r) => r.status === 'failed')).toBe(true);
  expect(w.engine.status().lastError).toContain(HISTORY_CHANGED);
  expect(w.engine.status().lastError).toMatch(detail);
  expect(w.cache.countRetirements()).toBe(before);
  expect(historyStatus(w.cache.db)).toMatchObject({ state: 'failed', evidence: 1 });
  const [evidence] = historyEvidence(w.cache.db);
  expect(evidence).toMatchObject({ kind });
  expect(evidence!.latestCheckpoint ?? evidence!.proof).toBeTruthy();
  // and it stays refused: the next run does not sync over what was verified
  expect((await w.engine.run()).ok).toBe(false);
  expect(w.cache.countRetirements()).toBe(before);
  return evidence!;
}

describe('the desk verifies the registry history at every sync', () => {
  it('re-syncs with one checkpoint and one page of new leaves, and matches synced retirements by content', async () => {
    const w = await verifiedWorld();
    const asked: string[] = [];
    const counting: FetchLike = (input, init) => {
      asked.push(new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url).pathname);
      return fetch(input, init);
    };
    const engine = engineFetchingThrough(w, counting, { feed: false });
    const sizeBefore = logSize(w.t);
    grow(w, 2);
    expect((await engine.run(['retirements'])).ok).toBe(true);
    expect(asked.filter((p) => p.startsWith('/transparency/v1/')).sort()).toEqual([
      '/transparency/v1/checkpoint',
      '/transparency/v1/leaves',
    ]);
    const status = historyStatus(w.cache.db);
    expect(status).toMatchObject({ state: 'verified', entries: logSize(w.t), pending: 0 });
    expect(status.entries).toBeGreaterThan(sizeBefore);
    expect(Date.parse(status.upTo!)).toBeGreaterThan(w.t.clock.now() - 5_000);

    // A retirement synced before a checkpoint covers it is pending; the next checkpoint verifies it.
    // These re-syncs match only the retirements written or newly covered (the first run read all).
    addVolume(w.t.registry, w.f, { retirements: 1 });
    expect((await engine.run(['retirements'])).ok).toBe(true);
    expect(historyStatus(w.cache.db)).toMatchObject({ state: 'verified', pending: 1 });
    w.t.clock.advance(5_000);
    expect((await engine.run(['retirements'])).ok).toBe(true);
    expect(historyStatus(w.cache.db)).toMatchObject({ state: 'verified', pending: 0, entries: logSize(w.t) });

    // a registry verified before that stops publishing its log is not "not verifiable": it fails
    const withdrawn: FetchLike = (input, init) =>
      String(input instanceof Request ? input.url : input).includes('/transparency/v1/checkpoint')
        ? Promise.resolve(new Response('not found', { status: 404 }))
        : fetch(input, init);
    const copyDir = makeDataDir('history-copy-');
    const copy = join(copyDir.dir, 'cache.sqlite');
    w.cache.db.raw.prepare('VACUUM INTO ?').run(copy);
    const copied = openDeskCache(copy, { clock: w.t.clock });
    cleanups.push(() => (copied.close(), copyDir.remove()));
    const check = createHistoryCheck({ baseUrl: w.t.url, cache: copied, clock: w.t.clock, fetch: withdrawn });
    await expect(check.begin()).rejects.toThrow(/no longer publishes the log it was verified against/);
    expect(historyStatus(copied.db).state).toBe('failed');
  });

  it('catches a row rewritten after it was logged', async () => {
    const w = await verifiedWorld();
    grow(w);
    dropGuards(w.t, 'movements');
    w.t.registry.db.prepare(`UPDATE movements SET amount = amount + 1 WHERE id = (SELECT MAX(id) FROM movements)`).run();
    const evidence = await expectRefused(w, 'rewritten', /do not give the root it signed: a record was changed after it was logged/);
    expect(evidence.keptCheckpoint).not.toBe(evidence.latestCheckpoint);
    expect((JSON.parse(evidence.proof!) as { leaves: unknown[] }).leaves.length).toBeGreaterThan(0);
  });

  it('catches a forked checkpoint: another root signed at the size it verified', async () => {
    const w = await verifiedWorld();
    const size = logSize(w.t);
    const key = logKey(w.t.registry);
    const root = new Uint8Array(32).fill(7);
    const body = checkpointBody({ origin: key.name, size, root, extensions: [`time ${new Date(w.t.clock.now()).toISOString()}`] });
    dropGuards(w.t, 'tlog_checkpoints');
    w.t.registry.db
      .prepare('UPDATE tlog_checkpoints SET note = ?, root = ? WHERE size = ?')
      .run(formatSignedNote(body, key.name, key.publicKey, key.sign(Buffer.from(body))), toBase64(root), size);
    const evidence = await expectRefused(w, 'fork', new RegExp(`two different histories of ${size} entries were signed`));
    expect(evidence.keptCheckpoint).toContain(`\n${size}\n`);
    expect(evidence.latestCheckpoint).toContain(toBase64(root));
  });

  it('catches a fork: an older copy of the database restored, other records written, signed with the same key', async () => {
    const w = await verifiedWorld();
    const backup = join(w.t.dir, 'older');
    mkdirSync(backup);
    w.t.registry.db.raw.pragma('wal_checkpoint(TRUNCATE)');
    copyFileSync(join(w.t.dir, 'registry.sqlite'), join(backup, 'registry.sqlite'));
    grow(w, 2);
    expect((await w.engine.run()).ok).toBe(true);
    const verified = historyStatus(w.cache.db).entries!;
    const reopened = await restartAfter(w, (dir) => {
      for (const f of ['registry.sqlite-wal', 'registry.sqlite-shm']) rmSync(join(dir, f), { force: true });
      copyFileSync(join(backup, 'registry.sqlite'), join(dir, 'registry.sqlite'));
    });
    // as many records as the desk verified, other ones: one history of that size, another root
    addVolume(reopened, w.f, { retirements: 3 });
    w.t.clock.advance(5_000);
    expect(registryLogSize(reopened)).toBeGreaterThan(verified);
    const evidence = await expectRefused(w, 'fork', new RegExp(`does not extend the ${verified} verified before`));
    expect(evidence.proof).toContain('hashes');
  });

  it('catches a truncated log', async () => {
    const w = await verifiedWorld();
    const size = logSize(w.t);
    for (const table of ['tlog_leaves', 'tlog_checkpoints']) dropGuards(w.t, table);
    const db = w.t.registry.db;
    // the log's size is its largest leaf's index + 1 (migration 0018): the deletion is the truncation
    db.transaction(() => {
      db.prepare('DELETE FROM tlog_leaves WHERE idx >= ?').run(size - 2);
      db.prepare('DELETE FROM tlog_checkpoints WHERE size > ?').run(size - 2);
    });
    await expectRefused(w, 'truncated', new RegExp(`its log shrank from ${size} to ${size - 2} entries`));
  });

  it('catches a checkpoint signed with another key than the one pinned at first sight', async () => {
    const w = await verifiedWorld();
    const pinned = logKey(w.t.registry).verifierKey;
    // whoever holds the file swaps the key; the registry, started again on it, signs with the new one
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const reopened = await restartAfter(w, (dir) => {
      const file = new BetterSqlite3(join(dir, 'registry.sqlite'));
      const guards = file.prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'tlog_key'`).all() as {
        name: string;
        sql: string;
      }[];
      for (const { name } of guards) file.prepare(`DROP TRIGGER ${name}`).run();
      file
        .prepare('UPDATE tlog_key SET public_key = ?, private_key = ?')
        .run(
          Buffer.from(rawPublicKey(publicKey)).toString('base64'),
          privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
        );
      // and puts the guards back, so the registry starts on the file (it refuses one without them)
      for (const { sql } of guards) file.exec(sql);
      file.close();
    });
    addVolume(reopened, w.f, { retirements: 1 });
    w.t.clock.advance(5_000);
    const evidence = await expectRefused(w, 'signature', /it now signs with another key .* than the one kept for this connection/);
    expect(evidence.message).toContain(pinned);
  });
});

/** The newest retirement's id, its amount made twice what its logged movement says (a registry serving a changed record). */
function doubleNewestRetirement(t: TestRegistry): string {
  const { id } = t.registry.db.prepare('SELECT id FROM retirements ORDER BY created_at DESC, id DESC LIMIT 1').get() as { id: string };
  dropGuards(t, 'retirements');
  t.registry.db.prepare('UPDATE retirements SET amount = amount * 2 WHERE id = ?').run(id);
  return id;
}

/** The guard's triggers on a connection (verification/guard.ts), by name. */
const guardTriggers = (db: DeskWorld['cache']['db']) =>
  db.raw.prepare("SELECT name FROM temp.sqlite_master WHERE type = 'trigger' AND name LIKE 'hv_guard_%' ORDER BY name").pluck().all();
const GUARD_TRIGGERS = [
  'hv_guard_bo_ledger_insert',
  'hv_guard_bo_ledger_update',
  'hv_guard_retirements_insert',
  'hv_guard_retirements_update',
];
const cachedRetirement = (w: DeskWorld, id: string) => w.cache.db.raw.prepare('SELECT amount FROM retirements WHERE id = ?').get(id);

describe('a synced record is matched with its leaf before the desk keeps it', () => {
  it('refuses a retirement that differs from its verified leaf: it never enters the cache, and the evidence is kept', async () => {
    const w = await verifiedWorld();
    grow(w, 2);
    const id = doubleNewestRetirement(w.t);
    const result = await w.engine.run(['retirements']);
    expect(result.ok).toBe(false);
    expect(w.engine.status().lastError).toBe(
      `${HISTORY_CHANGED}: a record it serves differs from the entry its log holds (retirement ${id}).`,
    );
    // the run's retirements were written in one transaction: none of them is kept
    expect(cachedRetirement(w, id)).toBeUndefined();
    expect(w.cache.countRetirements()).toBe(3);
    expect(historyStatus(w.cache.db)).toMatchObject({ state: 'failed', evidence: 1 });
    const [evidence] = historyEvidence(w.cache.db);
    expect(evidence).toMatchObject({ kind: 'content' });
    expect(evidence!.keptCheckpoint).toContain(`\n${logSize(w.t)}\n`);
    expect(JSON.parse(evidence!.proof!)).toMatchObject({
      mismatches: [{ record: `retirement ${id}`, synced: { amount: 0.002 }, logged: { amountGrams: 1000 } }],
    });
    // and later syncs are refused
    expect((await w.engine.run(['retirements'])).ok).toBe(false);
    expect(w.cache.countRetirements()).toBe(3);
  });

  it('matches a record synced before its leaf was verified when the leaf is, before that sync writes anything', async () => {
    const w = await verifiedWorld();
    // no time passes: the registry's checkpoint does not cover the new retirement yet
    addVolume(w.t.registry, w.f, { retirements: 1 });
    const id = doubleNewestRetirement(w.t);
    expect((await w.engine.run(['retirements'])).ok).toBe(true);
    expect(historyStatus(w.cache.db)).toMatchObject({ state: 'verified', pending: 1 });
    expect(cachedRetirement(w, id)).toEqual({ amount: 0.002 });
    grow(w, 1);
    const result = await w.engine.run(['retirements']);
    expect(result.ok).toBe(false);
    expect(w.engine.status().lastError).toContain(`differs from the entry its log holds (retirement ${id})`);
    expect(w.cache.countRetirements()).toBe(4);
    // the checkpoint that covers it is not kept as verified: the desk stays at the one before
    expect(historyStatus(w.cache.db)).toMatchObject({ state: 'failed', evidence: 1, pending: 1 });
    expect(JSON.parse(historyEvidence(w.cache.db)[0]!.proof!)).toMatchObject({ mismatches: [{ record: `retirement ${id}` }] });
  });
});

describe('with the changes feed, the history is replayed while the pages download', () => {
  it('loads a first sync before the checkpoint is answered, and keeps none of it when a record differs from its leaf', async () => {
    world = await startDeskWorld({ retirements: 3 });
    const w = world;
    const id = doubleNewestRetirement(w.t);
    // The checkpoint is answered only once the feed has read items: a check made before the
    // download (not beside it) would wait for ever.
    let feedRead!: () => void;
    const itemsRead = new Promise<void>((resolve) => (feedRead = resolve));
    const held: FetchLike = async (input, init) => {
      if (String(input instanceof Request ? input.url : input).includes('/transparency/v1/checkpoint')) await itemsRead;
      return fetch(input, init);
    };
    const engine = engineFetchingThrough(w, held);
    engine.subscribe((event) => {
      if (event.type === 'progress' && event.progress.done > 0) feedRead();
    });
    const result = await engine.run();
    expect(result.ok).toBe(false);
    expect(Object.values(result.results).every((r) => r.status === 'failed')).toBe(true);
    expect(engine.status().lastError).toBe(
      `${HISTORY_CHANGED}: a record it serves differs from the entry its log holds (retirement ${id}).`,
    );
    // the whole load was rolled back: nothing synced was kept, the evidence was; the guard is in place
    expect(w.cache.countRetirements()).toBe(0);
    expect(guardTriggers(w.cache.db)).toEqual(GUARD_TRIGGERS);
    expect(w.cache.feedCursor()).toBeNull();
    expect(historyStatus(w.cache.db)).toMatchObject({ state: 'failed', evidence: 1 });
    expect(JSON.parse(historyEvidence(w.cache.db)[0]!.proof!)).toMatchObject({
      mismatches: [{ record: `retirement ${id}`, synced: { amount: 0.002 }, logged: { amountGrams: 1000 } }],
    });
  });

  it('keeps the load and the verified checkpoint together when every record matches', async () => {
    world = await startDeskWorld({ retirements: 3 });
    const result = await world.engine.run();
    expect(result.ok).toBe(true);
    expect(world.cache.countRetirements()).toBe(3);
    expect(historyStatus(world.cache.db)).toMatchObject({ state: 'verified', entries: logSize(world.t), pending: 0, evidence: 0 });
    // Lifted for the load's pages (nothing was verified yet), the guard is back for what follows.
    expect(guardTriggers(world.cache.db)).toEqual(GUARD_TRIGGERS);
  });
});
