// The app tokens a desk mints for a remote connection: each is a token row, an audit entry and a
// transparency-log leaf on the registry, so adding a connection, refreshing its installations and
// activating it again must reuse the token its client already holds rather than mint another.
import { describe, expect, it } from 'vitest';
import type { DeskEvent } from '@shared/desk/api';
import { COMMAND_LINE_CONNECTION_ID } from '@desk/connection-manager';
import { pemOf, useRemoteDesk } from '@test/support/remote-desk';
import { deskCalls } from '@test/support/desk-calls';

const world = useRemoteDesk('desk-connection-tokens-');
const { ok } = deskCalls(() => world.desk);

/** The app tokens the registry has issued (installation tokens not counted). */
function appTokens(): number {
  const { db } = world.registry.registry;
  return db.all(db.q.selectFrom('access_tokens').select('id').where('app_id', '=', world.app.id).where('installation_id', 'is', null))
    .length;
}

/** Runs one sync pass of the active connection and waits for its end. */
async function syncOnce(): Promise<void> {
  const ended = new Promise<DeskEvent>((resolve) => {
    const off = world.desk.onEvent((e) => {
      if (e.type !== 'sync.finished' && e.type !== 'sync.failed') return;
      off();
      resolve(e);
    });
  });
  await ok('sync.run', {});
  expect((await ended).type).toBe('sync.finished');
}

describe('a remote connection added to a running desk', () => {
  let added: string;

  it('adding it and its first sync mint one app token: the check and the sync share it', async () => {
    const before = appTokens();
    added = (
      await ok('connections.addRemote', {
        name: 'Second',
        baseUrl: world.registry.url,
        appId: world.app.id,
        keyHandle: world.desk.keyImports.put(pemOf(0), 'app-key.pem').handle,
        encryptedFileFallback: { passphrase: 'correct horse battery', userConfirmed: true },
      })
    ).id;
    await ok('connections.activate', { id: added });
    await syncOnce();
    expect(appTokens() - before).toBe(1);
  });

  it('"Refresh installations" while it is not active asks with the token it keeps', async () => {
    await ok('connections.activate', { id: COMMAND_LINE_CONNECTION_ID });
    const before = appTokens();
    await ok('connections.refreshInstallations', { id: added });
    await ok('connections.refreshInstallations', { id: added });
    expect(appTokens() - before).toBe(0);
  });

  it('activated again after switching away, its sync uses the token it keeps', async () => {
    const before = appTokens();
    await ok('connections.activate', { id: added });
    await syncOnce();
    await ok('connections.activate', { id: COMMAND_LINE_CONNECTION_ID });
    await syncOnce();
    expect(appTokens() - before).toBe(0);
  });
});
