// The desk restarted over the same data folder without an OS keychain: its embedded registry's local
// administrator stays one account. Keys live in memory only there, so every start finds the key
// gone; the desk used to disable that account and make another of the same name at each start.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';
import { createDeskService, type DeskService } from '@desk/service';
import { EMBEDDED_CONNECTION_ID } from '@desk/connection-manager';
import { LOCAL_ADMINISTRATOR_NAME } from '@desk/local-operator';
import { seedDemo } from '@registry/seed';
import { REGISTRY_DB_FILE } from '@registry/open';
import { makeDataDir } from '@test/support/registry';
import { deskCalls } from '@test/support/desk-calls';

const data = makeDataDir('desk-restarts-');
let desk: DeskService | undefined;
const { ok } = deskCalls(() => desk!);

afterAll(async () => {
  await desk?.close();
  data.remove();
});

/** A desk start without a keychain (no probe: none is available), no sync: only start-up is tested. */
const start = () =>
  createDeskService({
    dataDir: data.dir,
    host: 'web',
    version: 'test',
    seedDemo: (registry, options) => void seedDemo(registry, options),
    autoSync: false,
  });

/** The registry's accounts named as the local administrator, read from its database file. */
function administrators(): unknown[] {
  const db = new Database(join(desk!.paths.embeddedRegistryDir, REGISTRY_DB_FILE), { readonly: true });
  try {
    return db.prepare('SELECT id, active FROM operators WHERE name = ?').all(LOCAL_ADMINISTRATOR_NAME);
  } finally {
    db.close();
  }
}

it('keeps one local administrator, the same account and enabled, with a new key at each start', async () => {
  desk = await start();
  const embedded = async () => (await ok('connections.list', {})).connections.find((c) => c.id === EMBEDDED_CONNECTION_ID)!;
  const first = (await embedded()).operatorId!;
  expect(administrators()).toEqual([{ id: first, active: 1 }]);

  for (let restart = 0; restart < 2; restart++) {
    await desk.close();
    desk = await start();
    expect(await embedded()).toMatchObject({ operatorId: first, keyStatus: 'ok' });
    expect((await embedded()).keyMessage).toContain('the local administrator keeps its account but gets a new key at every start');
    expect(administrators()).toEqual([{ id: first, active: 1 }]);
    // and the desk acts as it: an operator read signed with this start's key is answered
    const read = await ok('backOffice.read', { endpoint: 'operatorListOperators' });
    expect(read.source).toBe('registry');
    expect(JSON.stringify(read.data)).toContain(first);
  }
}, 120_000);
