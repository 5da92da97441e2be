import { afterEach, describe, expect, it } from 'vitest';
import { startDeskWorld, type DeskWorld } from '@test/support/desk-support';
import * as ops from '@registry/operations';
import { roundTripWaves } from '@test/support/round-trip-waves';
import type { FetchLike } from '@desk/client/http';

let world: DeskWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('sync engine against the real registry', () => {
  it('fills every resource, and a no-change re-sync fetches no per-project answers and writes nothing', async () => {
    world = await startDeskWorld({ projects: 30, retirements: 250, tuning: { pageSize: 20, feed: false } });
    const { engine, cache, f, requests } = world;
    const progress: string[] = [];
    engine.subscribe((e) => e.type === 'progress' && progress.push(e.progress.resource));
    const first = await engine.run();
    expect(first.ok, JSON.stringify(first.results)).toBe(true);
    expect(new Set(progress)).toEqual(
      new Set(['projects', 'internalProjects', 'projectDetails', 'credits', 'inventories', 'retirements', 'warehouses', 'organizations']),
    );

    const publicList = cache.searchProjects({ scope: 'public', limit: 500 });
    expect(publicList.total).toBe(31); // fixture's validated project + 30
    const internal = cache.searchProjects({ scope: 'internal', limit: 500 });
    expect(internal.total).toBe(32); // and the draft
    expect(internal.rows.find((r) => r.id === f.draftProjectId)?.isPublic).toBe(false);
    const detail = cache.getProject(f.projectId)!;
    expect('events' in detail.project && detail.project.events.length).toBeGreaterThan(0);
    expect(detail.credits?.vintages.map((v) => v.vintage)).toEqual(['2022']);
    expect(cache.searchRetirements({ limit: 10 }).total).toBe(250);
    expect(cache.getInventory('buffer')?.creditCount).toBeGreaterThan(0);
    const warehouse = cache.getWarehouse(f.orgA)!;
    expect(warehouse.canWrite).toBe(true);
    expect(warehouse.credits[0]?.amount).toBe(500);
    const orgs = cache.listOrganizations().organizations;
    expect(orgs.find((o) => o.id === f.orgA)?.installed).toBe(true);
    expect(orgs.some((o) => o.id === f.orgC)).toBe(false); // not public: not visible
    expect(Object.values(engine.status().lastSuccess).every((t) => t !== null)).toBe(true);
    // A full pass asks one page ahead, but not past the total: 250 retirements are 13 pages of 20
    // (the last one short), and exactly those 13 were asked for.
    expect(requests.get('/v1/retirements')).toBe(13);

    requests.clear();
    const again = await engine.run();
    expect(again.ok).toBe(true);
    for (const [resource, result] of Object.entries(again.results)) {
      if (result.status === 'ok' && resource !== 'inventories' && resource !== 'warehouses' && resource !== 'organizations') {
        expect(result.written, resource).toBe(0);
      }
    }
    expect([...requests.keys()].some((p) => p.startsWith('/projects/internal/'))).toBe(false);
    expect([...requests.keys()].some((p) => p.startsWith('/carbonCredits/projects/'))).toBe(false);
    expect(requests.get('/v1/retirements')).toBe(1); // the newest page was known: stop
    expect([...requests.keys()].some((p) => p.startsWith('/v1/organizations/'))).toBe(false); // none is stale yet
    expect(again.results.organizations).toMatchObject({ status: 'ok', written: 0 });
  });

  it('picks up a new retirement, a changed project and a removed installation incrementally', async () => {
    world = await startDeskWorld({ projects: 5, retirements: 30, tuning: { pageSize: 10, feed: false } });
    const { engine, cache, f, t } = world;
    await engine.run();
    ops.retireFromInventory(t.registry, {
      organizationId: f.orgA,
      creditId: f.creditId,
      amount: 1,
      beneficiary: 'Zelda Newcomer',
      reason: 'Gift',
    });
    ops.changeProjectStatus(t.registry, { projectId: f.draftProjectId, status: 'submitted' });
    world.requests.clear();
    const result = await engine.run(['internalProjects', 'projectDetails', 'retirements']);
    expect(result.ok).toBe(true);
    expect(cache.searchRetirements({ query: 'zelda' }).rows[0]?.beneficiary).toBe('Zelda Newcomer');
    expect(cache.searchRetirements({}).total).toBe(31);
    expect(cache.searchProjects({ scope: 'internal', filters: { status: 'submitted' } }).rows.map((r) => r.id)).toEqual([f.draftProjectId]);
    // only the changed project's detail was fetched again
    const detailPaths = [...world.requests.keys()].filter((p) => p.startsWith('/projects/internal/'));
    expect(detailPaths).toEqual([`/projects/internal/${f.draftProjectId}`]);
  });

  it('fetches an organization again only when new, a day old, or named by a changed project row, and remembers one it may not see', async () => {
    // Without examiner:read the non-public orgC answers 404 to this app.
    world = await startDeskWorld({
      examinerRead: false,
      tuning: { feed: false },
      setup: (r, f) => {
        // orgB's project with orgC as co-proponent.
        ops.createProject(r, {
          fullName: 'Shared Wetlands',
          description: 'Shared.',
          shortDescription: 'Shared',
          status: 'validated',
          startDate: '2021-01-01T00:00:00.000Z',
          creditingPeriodStartDate: '2021-06-01T00:00:00.000Z',
          countryCode: 'BR',
          sector: { id: 'energy', title: 'Energy' },
          methodology: { id: 'icr-re-002', title: 'Renewable energy' },
          type: { id: 'avoidance', title: 'Avoidance', description: '' },
          organizationId: f.orgB,
          proponentIds: [f.orgC],
          validatorIds: [f.validatorId],
        });
      },
    });
    const { engine, cache, f, t, requests } = world;
    const organizationRequests = () =>
      [...requests.keys()]
        .filter((p) => p.startsWith('/v1/organizations/'))
        .map((p) => p.slice('/v1/organizations/'.length))
        .sort();
    const listed = () =>
      cache
        .listOrganizations()
        .organizations.map((o) => o.id)
        .sort();
    expect((await engine.run()).ok).toBe(true);
    expect(organizationRequests()).toEqual([f.orgA, f.orgB, f.orgC].sort());
    expect(listed()).toEqual([f.orgA, f.orgB].sort());

    requests.clear();
    expect((await engine.run()).ok).toBe(true);
    expect(organizationRequests()).toEqual([]);
    expect(listed()).toEqual([f.orgA, f.orgB].sort());

    // orgA's public project changes: orgA is asked again, nobody else.
    ops.changeProjectStatus(t.registry, { projectId: f.projectId, status: 'registered' });
    requests.clear();
    expect((await engine.run()).ok).toBe(true);
    expect(organizationRequests()).toEqual([f.orgA]);

    // A day later every organization still referenced is asked again, the invisible one too.
    t.clock.advance(24 * 60 * 60 * 1000 + 1000);
    requests.clear();
    const later = await engine.run();
    expect(later.ok, JSON.stringify(later.results)).toBe(true);
    expect(organizationRequests()).toEqual([f.orgA, f.orgB, f.orgC].sort());
    expect(listed()).toEqual([f.orgA, f.orgB].sort());
  });

  it('skips internal projects without examiner:read and still syncs the rest', async () => {
    world = await startDeskWorld({ examinerRead: false });
    const result = await world.engine.run();
    expect(result.ok, JSON.stringify(result.results)).toBe(true);
    expect(result.results.internalProjects?.status).toBe('skipped');
    expect(result.results.projectDetails?.status).toBe('skipped');
    expect(world.cache.searchProjects({ scope: 'internal' }).total).toBe(0);
    expect(world.cache.searchProjects({ scope: 'public' }).total).toBe(1);
    expect(world.cache.getProject(world.f.projectId)?.credits).not.toBeNull();
  });

  it('keeps the previous data when the server dies mid-sync, reports offline, serves reads, and the next sync completes', async () => {
    // The server goes away when the second run asks for the internal list's third page: pages are
    // asked ahead, so a kill timed by the desk's progress could land after the list had come in.
    let killed: Promise<void> | undefined;
    let armed = false;
    const killing: FetchLike = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : input);
      if (armed && url.pathname === '/projects/internal' && url.searchParams.get('page') === '2') killed ??= world!.t.server.close();
      return killed ? killed.then(() => fetch(input, init)) : fetch(input, init);
    };
    world = await startDeskWorld({ projects: 40, retirements: 120, client: { fetch: killing }, tuning: { pageSize: 10, feed: false } });
    const { engine, cache, t, f } = world;
    await engine.run();
    const before = cache.searchProjects({ scope: 'internal', limit: 500 });
    // More data lands in the registry, then the server goes away half-way through the next run.
    ops.createProject(t.registry, {
      fullName: 'Late Arrival Wetlands',
      status: 'draft',
      startDate: '2022-01-01',
      creditingPeriodStartDate: '2022-01-01',
      countryCode: 'KE',
      sector: { id: 'forestry', title: 'Forestry' },
      methodology: { id: 'm', title: 'M' },
      type: { id: 'removal', title: 'Removal' },
      organizationId: f.orgA,
    });
    armed = true;
    const onlineEvents: boolean[] = [];
    engine.subscribe((e) => e.type === 'online' && onlineEvents.push(e.online));
    const interrupted = await engine.run();
    expect(killed).toBeDefined();
    await killed;
    expect(interrupted.ok).toBe(false);
    expect(interrupted.offline).toBe(true);
    expect(interrupted.results.internalProjects?.status).toBe('failed');
    expect(engine.status().online).toBe(false);
    expect(onlineEvents).toEqual([false]);
    // The cache still answers, with what it had.
    const during = cache.searchProjects({ scope: 'internal', limit: 500 });
    expect(during.total).toBe(before.total);
    expect(during.rows).toEqual(before.rows);
    expect(during.asOf).toBe(before.asOf);
    expect(cache.searchProjects({ scope: 'internal', query: 'late arrival' }).total).toBe(0);

    // The registry comes back on a new port; the next run completes.
    const { startRegistryServer } = await import('@registry/http/server');
    const server = await startRegistryServer({ registry: t.registry, background: false });
    const { createRegistryClient } = await import('@desk/client/registry-client');
    const { createTokenManager } = await import('@desk/client/tokens');
    const { createSyncEngine } = await import('@desk/sync/engine');
    const tokens = createTokenManager({
      baseUrl: server.url,
      appId: world.app.id,
      loadPrivateKey: async () => world!.app.privateKey,
      clock: t.clock,
    });
    const client = createRegistryClient({ baseUrl: server.url, tokens, clock: t.clock });
    const resumed = createSyncEngine({ client, cache, clock: t.clock, installations: () => world!.installations, tuning: { feed: false } });
    const done = await resumed.run();
    await server.close();
    expect(done.ok, JSON.stringify(done.results)).toBe(true);
    expect(cache.searchProjects({ scope: 'internal', limit: 500 }).total).toBe(before.total + 1);
    expect(cache.searchProjects({ scope: 'internal', query: 'late arrival' }).total).toBe(1);
    expect(resumed.status().online).toBe(true);
  });

  it('refreshes a token that expires mid-sync (registry clock moved past 2 h) and completes', async () => {
    world = await startDeskWorld({ projects: 20, tuning: { pageSize: 5, feed: false } });
    const { engine, t, cache } = world;
    let moved = false;
    engine.subscribe((e) => {
      if (e.type === 'progress' && e.progress.resource === 'projects' && e.progress.done === 2 && !moved) {
        moved = true;
        t.clock.advance(2 * 60 * 60 * 1000 + 1000);
      }
    });
    const result = await engine.run();
    expect(moved).toBe(true);
    expect(result.ok, JSON.stringify(result.results)).toBe(true);
    expect(cache.searchProjects({ scope: 'public', limit: 500 }).total).toBe(21);
    // two app tokens were obtained: the first one and its replacement
    expect(world.requests.get('/app/accessTokens')).toBe(2);
  });

  it('retries once with a new token when the registry revoked the cached one mid-sync', async () => {
    world = await startDeskWorld({ projects: 20, tuning: { pageSize: 5, feed: false } });
    const { engine, client, tokens } = world;
    let revoked = false;
    engine.subscribe((e) => {
      if (e.type === 'progress' && e.progress.resource === 'projects' && e.progress.done === 1 && !revoked) {
        revoked = true;
        // Revoke behind the token manager's back, as another process or the operator would.
        void tokens
          .get({ kind: 'app' })
          .then((token) =>
            fetch(`${world!.t.url}/app/installations/token`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } }),
          );
      }
    });
    const result = await engine.run(['projects']);
    expect(revoked).toBe(true);
    expect(result.ok, JSON.stringify(result.results)).toBe(true);
    expect(world.requests.get('/app/accessTokens')).toBe(2);
    void client;
  });

  it("asks for a list's pages after its first as soon as the first tells the total, and none past the last", async () => {
    const waves = roundTripWaves();
    world = await startDeskWorld({ retirements: 60, client: { fetch: waves.fetch }, tuning: { pageSize: 10, feed: false } });
    expect((await waves.drive(world.engine.run(['retirements']))).ok).toBe(true);
    const page = (n: number) => waves.sentIn.get(`/v1/retirements?page=${n}&limit=10`);
    // The second and third pages went out together, the round trip after the first (not one each).
    expect(page(1)).toBe(page(0)! + 1);
    expect(page(2)).toBe(page(1));
    expect(page(3)).toBe(page(1));
    // 60 retirements are 6 full pages, and the sixth's total says it is the last: no empty seventh.
    expect(world.cache.countRetirements()).toBe(60);
    expect([...waves.sentIn.keys()].filter((k) => k.startsWith('/v1/retirements?'))).toHaveLength(6);
  });

  it('joins a run in progress for the same resources and queues one follow-up for others', async () => {
    world = await startDeskWorld({ projects: 10, tuning: { feed: false } });
    const { engine } = world;
    const a = engine.run(['projects']);
    const b = engine.run(['projects']);
    const c = engine.run(['retirements']);
    const d = engine.run(['inventories']);
    expect(b).toBe(a);
    expect(d).toBe(c);
    expect(engine.status().running).toBe(true);
    const [ra, rc] = await Promise.all([a, c]);
    expect(Object.keys(ra.results)).toEqual(['projects']);
    expect(Object.keys(rc.results).sort()).toEqual(['inventories', 'retirements']);
    expect(engine.status().running).toBe(false);
  });
});
