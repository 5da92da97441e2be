// What a person does about a registry's history through the desk's API, against a real registry on
// a SQLite file: the log key reviewed and pinned when a connection is added (another key refused),
// the evidence of a failed check saved as one JSON file that a third party checks without the desk,
// and "verify this registry from scratch", which keeps the evidence, pins the key reviewed and
// verifies the whole log again.
import { createHash, generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeskEvent } from '@shared/desk/api';
import { checkpointBody, formatSignedNote, formatVerifierKey } from '@shared/transparency/note';
import { toBase64 } from '@shared/transparency/bytes';
import { createDeskService, type DeskService } from '@desk/service';
import { checkEvidence } from '@registry/transparency/evidence-check';
import { logKey, rawPublicKey } from '@registry/transparency/keys';
import { logSize as registryLogSize } from '@registry/transparency/tree';
import * as ops from '@registry/operations';
import { openSecretStore } from '@desk/secret-stores';
import type { SecretStoreFactory } from '@desk/key-vault';
import { createTestApp, makeDataDir, rsaKeyPair, startTestRegistry, type TestApp, type TestRegistry } from '@test/support/registry';
import { deskCalls } from '@test/support/desk-calls';
import { addVolume } from '@test/support/desk-support';
import { buildFixture, type Fixture } from '@test/support/fixture';

const pem = rsaKeyPair(0).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const secretStoreFactory: SecretStoreFactory = (kind, options) => openSecretStore(kind, options);

let registry: TestRegistry;
let app: TestApp;
let f: Fixture;
let data: { dir: string; remove(): void };
let desk: DeskService;
const { ok, fails } = deskCalls(() => desk);

beforeAll(async () => {
  registry = await startTestRegistry({
    background: false,
    setup: (r) => {
      f = buildFixture(r);
      addVolume(r, f, { retirements: 2 });
      app = createTestApp(r, { name: 'Remote desk app', keyIndex: 0 });
      ops.installApp(r, { appId: app.id, organizationId: f.orgA, permissions: { organization_warehouse: 'WRITE' } });
    },
  });
  data = makeDataDir('desk-history-review-');
  desk = await createDeskService({
    dataDir: data.dir,
    host: 'web',
    version: 't',
    seedDemo: () => Promise.reject(new Error('no embedded registry here')),
    remote: { baseUrl: registry.url, appId: app.id, privateKeyPem: pem },
    secretStoreFactory,
    probeKeychain: async () => ({ available: false, reason: 'no keychain in tests' }),
    autoSync: false,
    syncWorker: false,
    probe: false,
  });
}, 60_000);

afterAll(async () => {
  await desk?.close();
  data?.remove();
  await registry?.close();
});

/** One sync run of the active connection, to its end. */
function syncOnce(): Promise<DeskEvent> {
  return new Promise((resolve, reject) => {
    const off = desk.onEvent((event) => {
      if (event.type === 'sync.finished' || event.type === 'sync.failed') {
        off();
        resolve(event);
      }
    });
    void desk.dispatch('sync.run', {}).then((r) => r.ok || reject(new Error('sync.run refused')));
  });
}

const fingerprintOf = (publicKey: Uint8Array) =>
  createHash('sha256')
    .update(publicKey)
    .digest('hex')
    .replace(/(.{4})(?!$)/g, '$1 ');
const otherKey = () => formatVerifierKey(logKey(registry.registry).name, rawPublicKey(generateKeyPairSync('ed25519').publicKey));
const logSize = () => registryLogSize(registry.registry);

/** Whoever holds the database signs another root at the size the desk verified: a fork. */
function forkTheCheckpoint(size: number) {
  const key = logKey(registry.registry);
  const root = new Uint8Array(32).fill(9);
  const body = checkpointBody({ origin: key.name, size, root, extensions: [`time ${new Date(registry.clock.now()).toISOString()}`] });
  const db = registry.registry.db;
  for (const { name } of db.prepare(`SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'tlog_checkpoints'`).all() as {
    name: string;
  }[])
    db.prepare(`DROP TRIGGER ${name}`).run();
  db.prepare('UPDATE tlog_checkpoints SET note = ?, root = ? WHERE size = ?').run(
    formatSignedNote(body, key.name, key.publicKey, key.sign(Buffer.from(body))),
    toBase64(root),
    size,
  );
}

describe("the registry's log key, the evidence file and starting over", () => {
  let id = '';

  it('shows the key with its fingerprint when a connection is added, refuses another, and pins the one reviewed', async () => {
    const served = logKey(registry.registry);
    expect(await ok('connections.logKey', { baseUrl: registry.url })).toEqual({
      logKey: { key: served.verifierKey, fingerprint: fingerprintOf(served.publicKey) },
    });
    const before = readFileSync(join(data.dir, 'connections.json'), 'utf8');
    const add = (logKeyText: string) => ({
      name: 'Reviewed',
      baseUrl: registry.url,
      appId: app.id,
      keyHandle: desk.keyImports.put(pem, 'app.pem').handle,
      encryptedFileFallback: { passphrase: 'correct horse battery', userConfirmed: true },
      logKey: logKeyText,
    });
    const refused = await fails('connections.addRemote', add(otherKey()));
    expect(refused).toMatchObject({
      code: 'conflict',
      message: expect.stringContaining(`The registry serves the key ${served.verifierKey}`),
    });
    expect(await fails('connections.addRemote', add('not a key'))).toMatchObject({
      code: 'invalid_input',
      details: [expect.stringMatching(/^logKey: /)],
    });
    expect(readFileSync(join(data.dir, 'connections.json'), 'utf8')).toBe(before);

    const added = await ok('connections.addRemote', add(` ${served.verifierKey}\n`));
    expect(added.logKey).toEqual({ key: served.verifierKey, fingerprint: fingerprintOf(served.publicKey) });
    id = added.id;
    await ok('connections.activate', { id });
    expect(await syncOnce()).toMatchObject({ type: 'sync.finished', status: { history: { state: 'verified', entries: logSize() } } });
  });

  it('saves the evidence of a failed check as a file a third party checks without the desk', async () => {
    forkTheCheckpoint(logSize());
    expect(await syncOnce()).toMatchObject({ type: 'sync.failed', status: { history: { state: 'failed', evidence: 1 } } });
    const handle = await ok('sync.exportEvidence', {});
    expect(handle).toMatchObject({ kind: 'json', filename: expect.stringMatching(/^history-evidence Reviewed \d{4}-\d\d-\d\d\.json$/) });
    const text = new TextDecoder().decode(desk.artifacts.get(handle.handle)!.bytes);
    const report = await checkEvidence(text);
    expect(report).toMatchObject({ holds: true, key: logKey(registry.registry).verifierKey });
    expect(report.findings).toEqual([expect.objectContaining({ kind: 'fork', outcome: 'proved' })]);
    // a file whose checkpoint was not signed by its key does not hold
    const forged = JSON.parse(text) as { findings: { latestCheckpoint: string }[] };
    forged.findings[0]!.latestCheckpoint = forged.findings[0]!.latestCheckpoint.replace(
      /\n(\d+)\n/,
      (_, n: string) => `\n${Number(n) + 1}\n`,
    );
    expect((await checkEvidence(JSON.stringify(forged))).holds).toBe(false);
  });

  it('starts over only with the key the registry serves, keeps the evidence and verifies the whole log again', async () => {
    expect(await fails('connections.startOver', { id, logKey: otherKey() })).toMatchObject({ code: 'conflict' });
    expect((await ok('sync.status', {})).history).toMatchObject({ state: 'failed', evidence: 1 });

    // the registry goes on with its (real) history; the person accepts it as it is now
    addVolume(registry.registry, f, { retirements: 1 });
    registry.clock.advance(5_000);
    const restarted = await ok('connections.startOver', { id, logKey: logKey(registry.registry).verifierKey });
    expect(restarted.history).toMatchObject({ state: 'not_checked', evidence: 2 });
    const [fork, startedOver] = await ok('sync.historyEvidence', {});
    expect(fork).toMatchObject({ kind: 'fork' });
    expect(startedOver).toMatchObject({ kind: 'started_over', keptCheckpoint: fork!.keptCheckpoint });
    expect(await syncOnce()).toMatchObject({ type: 'sync.finished', status: { history: { state: 'verified', entries: logSize() } } });
  });
});
