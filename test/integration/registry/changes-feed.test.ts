// GET /sync/v1/changes over real HTTP: for each kind of token, what the feed answers (a snapshot,
// then the changes after a series of writes and a lapsed reservation, applied to it) equals what the
// seed endpoints answer that same token, resource by resource. Plus its cursor refusals and its
// compression.
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints } from '@shared/registry/endpoints';
import { strict } from '@shared/registry/resources';
import * as ops from '@registry/operations';
import { reserveCredits } from '@registry/warehouse/reservations';
import { feedPageQuery } from '@registry/queries/changes';
import { appToken, createTestApp, installationToken, startTestRegistry, type TestRegistry } from '@test/support/registry';
import { buildReadScenario, type ReadScenario } from '@test/support/read-scenario';

let t: TestRegistry;
let s: ReadScenario;
const tokens: Record<string, string> = {};
let appId: string;

beforeAll(async () => {
  t = await startTestRegistry({ setup: (r) => void (s = buildReadScenario(r)) });
  const app = createTestApp(t.registry);
  appId = app.id;
  const examiner = createTestApp(t.registry, { examinerRead: true, name: 'Examiner app' });
  tokens.app = await appToken(t, app);
  tokens.examiner = await appToken(t, examiner);
  const install = (appId: string, organizationId: string, permissions: Record<string, string>) =>
    ops.installApp(t.registry, { appId, organizationId, permissions }).id;
  tokens.warehouseView = await installationToken(t, app, install(app.id, s.orgA, { organization_warehouse: 'VIEW' }));
  tokens.warehouseWrite = await installationToken(t, app, install(app.id, s.orgB, { organization_warehouse: 'WRITE' }));
  tokens.infoOnly = await installationToken(t, app, install(app.id, s.orgC, { organization_info: 'VIEW' }));
  tokens.examinerInstallation = await installationToken(t, examiner, install(examiner.id, s.orgA, { organization_warehouse: 'WRITE' }));
  reserveCredits(t.registry, { organizationId: s.orgA, appId: app.id, creditId: s.creditId, amount: 5 });
});
afterAll(() => t.close());

type View = Map<string, unknown>;

async function json(path: string, token: string): Promise<{ status: number; body: unknown }> {
  const res = await t.call(path, { token });
  return { status: res.status, body: await res.json() };
}

/** What the seed endpoints answer a token, keyed as the feed keys its items. */
async function seedView(token: string): Promise<View> {
  const view: View = new Map();
  const db = t.registry.db.raw;
  for (let page = 0; ; page++) {
    const { body } = await json(`/projects?limit=100&page=${page}`, token);
    const { projects } = body as { projects: { id: string }[] };
    for (const p of projects) view.set(`project:${p.id}`, p);
    if (projects.length < 100) break;
  }
  const projectIds = (db.prepare('SELECT id FROM projects').all() as { id: string }[]).map((r) => r.id);
  for (const id of projectIds) {
    const internal = await json(`/projects/internal/${id}`, token);
    if (internal.status === 200) view.set(`internalProject:${id}`, (internal.body as { project: unknown }).project);
    const credits = await json(`/carbonCredits/projects/${id}`, token);
    if (credits.status === 200) view.set(`projectCredits:${id}`, credits.body);
  }
  for (let page = 0; ; page++) {
    const { body } = await json(`/v1/retirements?limit=100&page=${page}`, token);
    const { retirements } = body as { retirements: { id: string }[] };
    for (const r of retirements) view.set(`retirement:${r.id}`, r);
    if (retirements.length < 100) break;
  }
  for (const account of ['buffer', 'adjustment', 'organization']) {
    view.set(`inventory:${account}`, (await json(`/carbonCredits/icr/inventory/${account}`, token)).body);
  }
  for (const { id } of db.prepare('SELECT id FROM organizations').all() as { id: string }[]) {
    const organization = await json(`/v1/organizations/${id}`, token);
    if (organization.status === 200) view.set(`organization:${id}`, (organization.body as { organization: unknown }).organization);
    const inventory = await json(`/organizations/${id}/warehouse/inventory`, token);
    if (inventory.status !== 200) continue;
    const reservations: unknown[] = [];
    for (let page = 0; ; page++) {
      const { body } = await json(`/organizations/${id}/warehouse/inventory/reservations?limit=100&page=${page}`, token);
      const batch = (body as { reservations: unknown[] }).reservations;
      reservations.push(...batch);
      if (batch.length < 100) break;
    }
    view.set(`warehouse:${id}`, { inventory: inventory.body, reservations });
  }
  return view;
}

const schema = endpoints.getChanges.response(strict);
type Page = ReturnType<typeof schema.parse>;

/** Reads the feed from `cursor` to its end in small pages, applying every item and removal to `view`. */
async function readFeed(
  token: string,
  view: View,
  cursor = '',
  kinds = '',
  organizationId = '',
): Promise<{ cursor: string; pages: Page[] }> {
  const pages: Page[] = [];
  for (;;) {
    const { status, body } = await json(
      `/sync/v1/changes?limit=7&cursor=${encodeURIComponent(cursor)}${kinds && `&kinds=${kinds}`}${organizationId && `&organizationId=${organizationId}`}`,
      token,
    );
    expect(status, JSON.stringify(body)).toBe(200);
    const page = schema.parse(body);
    pages.push(page);
    for (const item of page.changes) {
      switch (item.type) {
        case 'project':
        case 'internalProject':
          view.set(`${item.type}:${item.project.id}`, item.project);
          break;
        case 'projectCredits':
          view.set(`projectCredits:${item.id}`, item.credits);
          break;
        case 'retirement':
          view.set(`retirement:${item.retirement.id}`, item.retirement);
          break;
        case 'inventory':
          view.set(`inventory:${item.account}`, item.inventory);
          break;
        case 'warehouse':
          view.set(`warehouse:${item.organizationId}`, { inventory: item.inventory, reservations: item.reservations });
          break;
        case 'organization':
          view.set(`organization:${item.organization.id}`, item.organization);
          break;
      }
    }
    for (const gone of page.removed) view.delete(`${gone.type}:${gone.id}`);
    cursor = page.cursor;
    if (!page.more) return { cursor, pages };
  }
}

const sorted = (view: View) => new Map([...view.entries()].sort(([a], [b]) => (a < b ? -1 : 1)));

describe('GET /sync/v1/changes', () => {
  const cursors: Record<string, string> = {};
  const views: Record<string, View> = {};

  it('snapshots exactly what the seed endpoints show each kind of token', async () => {
    for (const [kind, token] of Object.entries(tokens)) {
      const view: View = new Map();
      const { cursor, pages } = await readFeed(token, view);
      expect(pages.length, kind).toBeGreaterThan(2);
      expect(
        pages.flatMap((p) => p.removed),
        `${kind}: a snapshot removes nothing`,
      ).toEqual([]);
      expect(sorted(view), kind).toEqual(sorted(await seedView(token)));
      cursors[kind] = cursor;
      views[kind] = view;
    }
    // the views differ as the rules say: examiners see internal projects, warehouses are their organization's
    expect([...views.app!.keys()].some((k) => k.startsWith('internalProject:'))).toBe(false);
    expect(views.examiner!.has(`internalProject:${s.projectOfC}`)).toBe(true);
    expect([...views.warehouseView!.keys()].filter((k) => k.startsWith('warehouse:'))).toEqual([`warehouse:${s.orgA}`]);
    expect([...views.infoOnly!.keys()].filter((k) => k.startsWith('warehouse:'))).toEqual([]);
    expect(views.infoOnly!.has(`organization:${s.orgC}`)).toBe(true);
    expect(views.app!.has(`organization:${s.orgC}`)).toBe(false);
  });

  it('carries at most one account inventory a page, however large the limit', async () => {
    const perPage: number[] = [];
    for (let cursor = ''; ;) {
      const { status, body } = await json(`/sync/v1/changes?limit=1000&cursor=${encodeURIComponent(cursor)}`, tokens.examiner!);
      expect(status).toBe(200);
      const page = schema.parse(body);
      perPage.push(page.changes.filter((c) => c.type === 'inventory').length);
      cursor = page.cursor;
      if (!page.more) break;
    }
    const inventories = [...views.examiner!.keys()].filter((k) => k.startsWith('inventory:')).length;
    expect(inventories).toBeGreaterThan(1);
    expect(Math.max(...perPage)).toBe(1);
    expect(perPage.reduce((a, b) => a + b, 0)).toBe(inventories);
  });

  it('answers nothing more when nothing changed', async () => {
    const { body } = await json(`/sync/v1/changes?cursor=${encodeURIComponent(cursors.app!)}`, tokens.app!);
    expect(schema.parse(body)).toMatchObject({ changes: [], removed: [], more: false });
  });

  it('then answers each token the changes that bring its view to what the seed endpoints show', async () => {
    // B loses its verification (its public project leaves the public view, its retirements are
    // redacted), a project is renamed, a new retirement, and A's reservation lapses with time alone.
    ops.setOrganizationVerified(t.registry, { organizationId: s.orgB, verified: false });
    t.registry.db.raw.prepare(`UPDATE projects SET full_name = 'Renamed Kilimanjaro' WHERE id = ?`).run(s.projectId);
    ops.retireFromInventory(t.registry, { organizationId: s.orgA, creditId: s.creditId, amount: 1, beneficiary: 'New', reason: 'Later' });
    t.clock.advance(11 * 60 * 1000);
    for (const [kind, token] of Object.entries(tokens)) {
      const view = views[kind]!;
      const { pages } = await readFeed(token, view, cursors[kind]);
      expect(sorted(view), kind).toEqual(sorted(await seedView(token)));
      if (kind === 'app') {
        const removed = pages.flatMap((p) => p.removed);
        expect(removed).toContainEqual({ type: 'project', id: s.publicProjectOfB });
        expect(removed).toContainEqual({ type: 'projectCredits', id: s.publicProjectOfB });
      }
    }
    const lapsed = views.warehouseView!.get(`warehouse:${s.orgA}`) as { reservations: { state: string }[] };
    expect(lapsed.reservations.map((r) => r.state)).toEqual(['expired']);
  });

  it('answers only the kinds of resource asked for', async () => {
    const only = (view: View) => sorted(new Map([...view].filter(([key]) => /^(organization|warehouse):/.test(key))));
    for (const kind of ['warehouseView', 'infoOnly'] as const) {
      const view: View = new Map();
      const { cursor } = await readFeed(tokens[kind]!, view, '', 'warehouse,organization');
      expect(sorted(view), kind).toEqual(only(await seedView(tokens[kind]!)));
      // later changes: only those kinds too
      t.registry.db.raw.prepare(`UPDATE projects SET full_name = full_name || '.' WHERE id = ?`).run(s.projectId);
      ops.setOrganizationVerified(t.registry, { organizationId: s.orgB, verified: true });
      const { pages } = await readFeed(tokens[kind]!, view, cursor, 'warehouse,organization');
      const types = new Set(pages.flatMap((p) => [...p.changes, ...p.removed].map((c) => c.type)));
      expect(
        [...types].filter((type) => type !== 'warehouse'),
        kind,
      ).toEqual(['organization']);
      expect(sorted(view), kind).toEqual(only(await seedView(tokens[kind]!)));
    }
    const refused = await json('/sync/v1/changes?kinds=project,gizmo', tokens.app!);
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toMatch(/kinds/);
  });

  it("answers only one organization's record and warehouse when asked, as an installation reads its own", async () => {
    const ofOrganization = (view: View, id: string) =>
      sorted(new Map([...view].filter(([key]) => key === `organization:${id}` || key === `warehouse:${id}`)));
    // (A's installation may read its warehouse, C's only C's record, which is not public)
    const cases = [
      { kind: 'warehouseView', id: s.orgA, keys: [`organization:${s.orgA}`, `warehouse:${s.orgA}`] },
      { kind: 'infoOnly', id: s.orgC, keys: [`organization:${s.orgC}`] },
      { kind: 'warehouseView', id: s.orgC, keys: [] },
    ];
    for (const { kind, id, keys } of cases) {
      const view: View = new Map();
      const { cursor, pages } = await readFeed(tokens[kind]!, view, '', 'warehouse,organization', id);
      expect([...sorted(view).keys()], `${kind} ${id}`).toEqual(keys);
      expect(sorted(view), `${kind} ${id}`).toEqual(ofOrganization(await seedView(tokens[kind]!), id));
      expect(pages, `${kind} ${id}: one page, whatever the other organizations`).toHaveLength(1);
      // later changes: B's record twice (its state as before), a reservation in A's warehouse,
      ops.setOrganizationVerified(t.registry, { organizationId: s.orgB, verified: false });
      ops.setOrganizationVerified(t.registry, { organizationId: s.orgB, verified: true });
      reserveCredits(t.registry, { organizationId: s.orgA, appId, creditId: s.creditId, amount: 1 });
      // and it lapses: A's warehouse changes with time alone, for a reader of A only
      t.clock.advance(11 * 60 * 1000);
      const later = await readFeed(tokens[kind]!, view, cursor, 'warehouse,organization', id);
      const keysLater = later.pages.flatMap((p) =>
        p.changes.map((c) =>
          c.type === 'warehouse'
            ? `warehouse:${c.organizationId}`
            : c.type === 'organization'
              ? `organization:${c.organization.id}`
              : c.type,
        ),
      );
      expect(keysLater, `${kind} ${id}`).toEqual(keys.filter((key) => key.startsWith('warehouse:')));
      expect(sorted(view), `${kind} ${id}`).toEqual(ofOrganization(await seedView(tokens[kind]!), id));
    }
    // the other kinds are not narrowed
    const app: View = new Map();
    await readFeed(tokens.app!, app, '', 'project,organization', s.orgB);
    expect([...app.keys()].filter((key) => key.startsWith('organization:'))).toEqual([`organization:${s.orgB}`]);
    expect([...app.keys()].filter((key) => key.startsWith('project:')).length).toBeGreaterThan(1);
    const refused = await json('/sync/v1/changes?organizationId=', tokens.app!);
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toMatch(/organizationId must not be empty/);
  });

  it('reads a page from the sequence index, whatever the kinds (SQLite)', () => {
    if (t.registry.db.engine !== 'sqlite') return;
    const page = t.registry.db.compile(
      feedPageQuery({
        after: { seq: 5, kind: 'project', key: 'x' },
        finalBelow: 1_000_000,
        organizationId: null,
        kinds: ['warehouse', 'organization'],
        limit: 1001,
      }),
    );
    const plan = (t.registry.db as unknown as { raw: { prepare(sql: string): { all(...p: unknown[]): { detail: string }[] } } }).raw
      .prepare(`EXPLAIN QUERY PLAN ${page.sql}`)
      .all(...page.parameters)
      .map((row) => row.detail)
      .join(' | ');
    expect(plan).toMatch(/feed_changes_by_seq/);
    expect(plan).not.toMatch(/TEMP B-TREE/);
  });

  it('refuses a cursor it did not make, or one ahead of it, and changes nothing', async () => {
    for (const cursor of ['nonsense', Buffer.from('[1,999999999,"project","x",0]').toString('base64url')]) {
      const { status, body } = await json(`/sync/v1/changes?cursor=${cursor}`, tokens.app!);
      expect(status).toBe(400);
      expect(strict.errorBody.parse(body).message).toMatch(/not a cursor of this registry/);
    }
    expect((await json('/sync/v1/changes?limit=0', tokens.app!)).status).toBe(400);
    expect((await t.call('/sync/v1/changes')).status).toBe(401);
  });

  it('compresses its answers for a client that accepts gzip or brotli, and not otherwise', async () => {
    const { request } = await import('node:http');
    const get = (encoding: string) =>
      new Promise<{ encoding: string | undefined; body: Buffer }>((resolve, reject) => {
        const req = request(
          // Projects and retirements: 50 items whatever the order of keys (inventories end a page early).
          `${t.url}/sync/v1/changes?limit=50&kinds=project,retirement`,
          { headers: { authorization: `Bearer ${tokens.app}`, 'accept-encoding': encoding } },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
          },
        );
        req.on('error', reject);
        req.end();
      });
    const plain = await get('identity');
    expect(plain.encoding).toBeUndefined();
    const gzipped = await get('br;q=1, gzip');
    expect(gzipped.encoding).toBe('gzip');
    expect(gzipped.body.length).toBeLessThan(plain.body.length / 3);
    // the same answer but for the cursor, which carries the moment of the answer
    const withoutCursor = (text: string) => ({ ...(JSON.parse(text) as object), cursor: null });
    expect(withoutCursor(gunzipSync(gzipped.body).toString('utf8'))).toEqual(withoutCursor(plain.body.toString('utf8')));
    expect((await get('br')).encoding).toBe('br');
  });
});
