// The sync follows the app's examiner:read grant with the app token it keeps: each pass asks the
// registry what that token may read now (desk/examiner-probe.ts) instead of minting a token to read
// its permissions (a token row, an audit entry and a log leaf on the registry per pass). Checked on
// both paths, the seed interface and the changes feed, against a real registry on loopback, with
// the grant changed by the operator between passes. A revoked grant leaves nothing in the cache that
// only the grant let the desk read, and a re-grant brings it back.
import { afterEach, describe, expect, it } from 'vitest';
import * as ops from '@registry/operations';
import type { SyncTuning } from '@desk/sync/context';
import { deskApi } from '@shared/desk/api';
import type { ServiceContext } from '@desk/methods/context';
import { syncedReadMethods } from '@desk/methods/synced-reads';
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

/**
 * What the cache holds that only examiner:read let the desk read: the internal list and its search
 * entries, the internal answers (details with events), answers and staged rows of projects the
 * public list does not hold, and page hashes that would let a pass skip reading the list again.
 */
function internalTraces(w: DeskWorld) {
  const { db } = w.cache;
  const publicIds = new Set(w.cache.projectHashes('public').keys());
  const unlisted = (rows: { id: string }[]) => rows.filter((r) => !publicIds.has(r.id)).length;
  return {
    internalRows: db.all(db.q.selectFrom('projects').select('id').where('scope', '=', 'internal')).length,
    internalSearchEntries: db.all(db.q.selectFrom('projects_internal_fts').select('rowid')).length,
    details: db.all(db.q.selectFrom('project_details').select('id')).length,
    creditsOfUnlisted: unlisted(db.all(db.q.selectFrom('project_credits').select('project_id as id'))),
    vintagesOfUnlisted: unlisted(db.all(db.q.selectFrom('project_vintages').select('project_id as id'))),
    staged: db.all(db.q.selectFrom('staging').select('id').where('resource', 'in', ['internalProjects', 'projectDetails'])).length,
    stagedOfUnlisted: unlisted(db.all(db.q.selectFrom('staging').select('id'))),
    internalPageHashes: db.all(db.q.selectFrom('page_hashes').select('page').where('resource', '=', 'internalProjects')).length,
  };
}

/** The desk API's project reads as the renderer calls them: input checked by its schema, then methods/synced-reads.ts. */
function projectReads(w: DeskWorld) {
  const context: Pick<ServiceContext, 'cache' | 'fresh'> = { cache: () => w.cache, fresh: (value) => ({ ...value, offline: false }) };
  const methods = syncedReadMethods(context as ServiceContext);
  return {
    get: async (id: string) => methods['projects.get'](deskApi['projects.get'].input.parse({ id })),
    search: async (scope: 'public' | 'internal', query: string) =>
      methods['projects.search'](deskApi['projects.search'].input.parse({ scope, query, limit: 50 })),
  };
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

describe.each(paths)('a revoked grant, synced through $path', ({ tuning }) => {
  it('leaves nothing in the cache that only the grant let the desk read, and a re-grant brings it back', async () => {
    world = await startDeskWorld({ projects: 12, tuning });
    const { engine, cache, t, app, f } = world;
    const reads = projectReads(world);
    const getProject = reads.get;
    const draftSearch = async (scope: 'public' | 'internal') => (await reads.search(scope, 'Mangroves')).total;

    expect((await engine.run()).ok).toBe(true);
    const granted = internalTraces(world);
    expect(granted).toMatchObject({ internalRows: 14, internalSearchEntries: 14, details: 14 });
    expect(granted.creditsOfUnlisted).toBe(1);
    expect((await getProject(f.draftProjectId)).project).toHaveProperty('events');
    expect(await draftSearch('internal')).toBe(1);

    ops.grantExaminer(t.registry, { appId: app.id, granted: false });
    const revoked = await engine.run();
    expect(revoked.ok, JSON.stringify(revoked.results)).toBe(true);
    expect(internalTraces(world)).toEqual({
      internalRows: 0,
      internalSearchEntries: 0,
      details: 0,
      creditsOfUnlisted: 0,
      vintagesOfUnlisted: 0,
      staged: 0,
      stagedOfUnlisted: 0,
      internalPageHashes: 0,
    });
    // The draft is gone from every read; a public project answers what the public list gave, no events.
    await expect(getProject(f.draftProjectId)).rejects.toThrow(/not in the desk's data/);
    expect((await draftSearch('internal')) + (await draftSearch('public'))).toBe(0);
    const listed = cache.db.first(
      cache.db.q.selectFrom('projects').select('json').where('scope', '=', 'public').where('id', '=', f.projectId),
    );
    const kept = await getProject(f.projectId);
    expect(kept.project).not.toHaveProperty('events');
    expect(kept.project).toEqual(JSON.parse(listed!.json));
    expect(kept.credits).not.toBeNull();

    ops.grantExaminer(t.registry, { appId: app.id, granted: true });
    expect((await engine.run()).ok).toBe(true);
    expect(internalTraces(world)).toEqual(granted);
    expect((await getProject(f.draftProjectId)).project).toHaveProperty('events');
    expect(await draftSearch('internal')).toBe(1);
  });
});

describe('a revoked grant met by a pass of the internal list alone', () => {
  it('forgets the answers of the internal endpoints with the list, not at a later step', async () => {
    world = await startDeskWorld({ projects: 4, tuning: { feed: false, pageSize: 10 } });
    const { engine, t, app } = world;
    expect((await engine.run()).ok).toBe(true);
    expect(internalTraces(world)).toMatchObject({ details: 6, creditsOfUnlisted: 1 });
    ops.grantExaminer(t.registry, { appId: app.id, granted: false });
    const revoked = await engine.run(['internalProjects']);
    expect(revoked.ok, JSON.stringify(revoked.results)).toBe(true);
    expect(internalTraces(world)).toMatchObject({ internalRows: 0, details: 0, creditsOfUnlisted: 0, vintagesOfUnlisted: 0 });
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
