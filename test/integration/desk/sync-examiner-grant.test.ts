// The sync follows the app's examiner:read grant with the app token it keeps: each pass asks the
// registry what that token may read now (desk/examiner-probe.ts) instead of minting a token to read
// its permissions (a token row, an audit entry and a log leaf on the registry per pass). Checked on
// both paths, the seed interface and the changes feed, against a real registry on loopback, with
// the grant changed by the operator between passes.
import { afterEach, describe, expect, it } from 'vitest';
import * as ops from '@registry/operations';
import type { SyncTuning } from '@desk/sync/context';
import { startDeskWorld, type DeskWorld } from '@test/support/desk-support';

let world: DeskWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** The app tokens the registry issued (each one a row, an audit entry and a transparency-log leaf). */
function appTokensIssued(w: DeskWorld): number {
  const { db } = w.t.registry;
  return db.all(db.q.selectFrom('access_tokens').select('id').where('app_id', '=', w.app.id).where('installation_id', 'is', null)).length;
}

const paths: { path: string; tuning: Partial<SyncTuning> }[] = [
  { path: 'the seed interface', tuning: { feed: false, pageSize: 10 } },
  { path: 'the changes feed', tuning: { feedLimit: 16 } },
];

describe.each(paths)('a sync through $path', ({ tuning }) => {
  it('mints one app token for many passes', async () => {
    world = await startDeskWorld({ projects: 12, tuning });
    const results = [];
    for (let pass = 0; pass < 4; pass++) results.push(await world.engine.run());
    expect(appTokensIssued(world)).toBe(1);
    expect(world.requests.get('/app/accessTokens')).toBe(1);
    for (const result of results) {
      expect(result.ok, JSON.stringify(result.results)).toBe(true);
      expect(result.examinerRead).toBe(true);
    }
  });

  it('follows the operator revoking and granting examiner:read at the next pass, with the token it keeps', async () => {
    world = await startDeskWorld({ projects: 12, tuning });
    const { engine, cache, t, app } = world;
    const internal = () => cache.searchProjects({ scope: 'internal', limit: 500 }).total;
    // The feed's cursor says the view it was read with: a change of grant starts again from a snapshot.
    const cursorView = () => (tuning.feed === false ? 'none' : cache.feedCursor()?.split(':')[0]);

    const granted = await engine.run();
    expect(granted.ok, JSON.stringify(granted.results)).toBe(true);
    expect(granted.examinerRead).toBe(true);
    expect(internal()).toBe(14);
    expect(cursorView()).toMatch(/^(none|examiner)$/);

    ops.grantExaminer(t.registry, { appId: app.id, granted: false });
    const revoked = await engine.run();
    expect(revoked.ok, JSON.stringify(revoked.results)).toBe(true);
    expect(revoked.examinerRead).toBe(false);
    expect(revoked.results.internalProjects).toMatchObject({ status: 'skipped' });
    expect(revoked.results.projectDetails).toMatchObject({ status: 'skipped' });
    // The internal list the app may no longer read is not kept (as when the grant was known revoked).
    expect(internal()).toBe(0);
    expect(cursorView()).toMatch(/^(none|public)$/);
    expect(cache.searchProjects({ scope: 'public', limit: 500 }).total).toBe(13);

    ops.grantExaminer(t.registry, { appId: app.id, granted: true });
    const again = await engine.run();
    expect(again.ok, JSON.stringify(again.results)).toBe(true);
    expect(again.examinerRead).toBe(true);
    expect(again.results.internalProjects).toMatchObject({ status: 'ok' });
    expect(internal()).toBe(14);
    expect(cursorView()).toMatch(/^(none|examiner)$/);

    // All three passes with the token minted for the first.
    expect(appTokensIssued(world)).toBe(1);
  });
});

describe('a pass that will read the internal list through the seed interface', () => {
  it('asks its first page once: the answer that tells the grant is the page its step writes', async () => {
    world = await startDeskWorld({ projects: 25, tuning: { feed: false, pageSize: 10 } });
    expect((await world.engine.run()).ok).toBe(true);
    world.requests.clear();
    const again = await world.engine.run(['internalProjects']);
    expect(again.ok, JSON.stringify(again.results)).toBe(true);
    // 27 projects are 3 pages of 10: each asked once, the first by the pass itself.
    expect(world.requests.get('/projects/internal')).toBe(3);
    expect(world.requests.get('/app/accessTokens')).toBeUndefined();
  });
});
