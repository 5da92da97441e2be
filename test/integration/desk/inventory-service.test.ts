// The inventory methods of the desk API through the real desk service (embedded registry seeded
// with the scale-1 demo, synced into the cache): answers checked against the contract's output
// schemas, bad input refused as `invalid_input` listing every problem, and the CSV export holding
// exactly the rows the list shows with its search, filters and sort. Last, the app's examiner
// rights changed in the registry: the desk's sync and Settings follow them.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeskEvent } from '@shared/desk/api';
import { createDeskService, type DeskService } from '@desk/service';
import { EMBEDDED_CONNECTION_ID } from '@desk/connection-manager';
import { REGISTRY_DB_FILE } from '@registry/open';
import { seedDemo } from '@registry/seed';
import { makeDataDir } from '@test/support/registry';
import { deskCalls } from '@test/support/desk-calls';

let data: { dir: string; remove(): void };
let desk: DeskService;

const { ok, fails } = deskCalls(() => desk);

/** The CSV's lines without the byte order mark and the final line end. */
const csvLines = (file: { handle: string }) =>
  Buffer.from(desk.artifacts.get(file.handle)!.bytes)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n');

beforeAll(async () => {
  data = makeDataDir('desk-inventory-service-');
  desk = await createDeskService({
    dataDir: data.dir,
    host: 'web',
    version: 'test',
    seedDemo: (registry, options) => void seedDemo(registry, options),
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the first sync did not finish')), 120_000);
    const off = desk.onEvent((e: DeskEvent) => {
      if (e.type !== 'sync.finished' && e.type !== 'sync.failed') return;
      clearTimeout(timer);
      off();
      if (e.type === 'sync.failed') reject(new Error(e.message));
      else resolve();
    });
  });
}, 180_000);

afterAll(async () => {
  await desk?.close();
  data?.remove();
});

describe('inventories through the desk API', () => {
  it('inventories.get answers the summary, holder and count, never the credits', async () => {
    const buffer = await ok('inventories.get', { account: 'buffer' });
    expect(buffer.creditCount).toBeGreaterThan(100);
    expect(buffer.organization.fullName).toBeTruthy();
    expect(buffer.offline).toBe(false);
    expect(buffer.asOf).not.toBeNull();
    expect(buffer).not.toHaveProperty('credits');
  });

  it('inventories.credits pages through an account with search, filters and sort', async () => {
    const { creditCount } = await ok('inventories.get', { account: 'buffer' });
    const all = await ok('inventories.credits', { account: 'buffer', limit: 500 });
    expect(all.total).toBe(creditCount);
    expect(all.rows).toHaveLength(Math.min(500, creditCount));
    expect(all.offline).toBe(false);
    const first = all.rows[0]!;
    const byProject = await ok('inventories.credits', { account: 'buffer', query: first.projectName, limit: 500 });
    expect(byProject.rows.some((r) => r.id === first.id)).toBe(true);
    expect(byProject.total).toBeLessThan(all.total);
    const vintage = await ok('inventories.credits', {
      account: 'buffer',
      filters: { vintage: first.vintage },
      sort: { field: 'amount', direction: 'desc' },
      limit: 500,
    });
    expect(vintage.rows.every((r) => r.vintage === first.vintage)).toBe(true);
    expect(vintage.rows.map((r) => r.amount)).toEqual([...vintage.rows.map((r) => r.amount)].sort((a, b) => b - a));
    const page = await ok('inventories.credits', {
      account: 'buffer',
      filters: { vintage: first.vintage },
      sort: { field: 'amount', direction: 'desc' },
      offset: 2,
      limit: 3,
    });
    expect(page.rows).toEqual(vintage.rows.slice(2, 5));
  });

  it('inventories.facets counts vintages and types', async () => {
    const facets = await ok('inventories.facets', { account: 'buffer' });
    const { creditCount } = await ok('inventories.get', { account: 'buffer' });
    expect(facets.vintages.reduce((n, v) => n + v.count, 0)).toBe(creditCount);
    expect(facets.types.map((t) => t.value).sort()).toEqual(['exAnte', 'exPost']);
  });

  it('inventories.facets counts each value under the search and the other filter', async () => {
    const whole = await ok('inventories.facets', { account: 'buffer' });
    const type = whole.types[0]!.value;
    const narrowed = await ok('inventories.facets', { account: 'buffer', filters: { type } });
    for (const v of narrowed.vintages) {
      const listed = await ok('inventories.credits', { account: 'buffer', filters: { type, vintage: v.value }, limit: 1 });
      expect(listed.total, v.value).toBe(v.count);
    }
    // Its own filter does not narrow a facet: every type stays a choice.
    expect(narrowed.types.map((t) => t.value).sort()).toEqual(whole.types.map((t) => t.value).sort());
    const vintage = whole.vintages[0]!.value;
    const typed = await ok('inventories.facets', { account: 'buffer', query: 'zzzz-no-such', filters: { vintage } });
    expect(typed.vintages).toEqual([{ value: vintage, label: vintage, count: 0 }]);
  });

  it('refuses bad input as invalid_input, listing every problem', async () => {
    const credits = await fails('inventories.credits', {
      account: 'treasury',
      limit: 0,
      sort: { field: 'relevance' },
      filters: { vintage: '99' },
    });
    expect(credits.code).toBe('invalid_input');
    expect(credits.details).toHaveLength(4);
    for (const field of ['account', 'limit', 'sort.field', 'filters.vintage']) expect(credits.details!.join('\n')).toContain(field);
    expect((await fails('inventories.get', { account: 'nope' })).code).toBe('invalid_input');
    expect((await fails('inventories.facets', {})).code).toBe('invalid_input');
    const csv = await fails('export.csv', {
      list: 'inventory',
      account: 'buffer',
      filters: { type: '' },
      sort: { field: 'amount', direction: 'sideways' },
    });
    expect(csv.code).toBe('invalid_input');
    expect(csv.details).toHaveLength(2);
  });

  it('exports exactly the rows the list shows with its search, filters and sort', async () => {
    const listed = await ok('inventories.credits', { account: 'buffer', limit: 500 });
    const vintage = listed.rows[0]!.vintage;
    const search = { query: 'rdr', filters: { vintage, type: 'exPost' }, sort: { field: 'supply' as const, direction: 'desc' as const } };
    const shown = await ok('inventories.credits', { account: 'buffer', ...search, limit: 500 });
    expect(shown.total).toBeGreaterThan(0);
    const file = await ok('export.csv', { list: 'inventory', account: 'buffer', ...search });
    expect(file.kind).toBe('csv');
    expect(file.filename).toMatch(/^inventory-buffer-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = csvLines(file);
    expect(lines[0]).toBe('Credit,Project number,Project,Serialization,Vintage,Type,Amount (tCO2e),Supply,Unit,Token id,Token address');
    expect(lines).toHaveLength(shown.total + 1);
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(shown.rows.map((r) => r.id));
    expect(lines.slice(1).every((l) => l.includes(`,${vintage},exPost,`))).toBe(true);

    // Without a search: every credit of the account.
    const { creditCount } = await ok('inventories.get', { account: 'buffer' });
    expect(csvLines(await ok('export.csv', { list: 'inventory', account: 'buffer' }))).toHaveLength(creditCount + 1);
  });
});

describe("the app's examiner rights, changed in the registry", () => {
  const withRegistryDb = <T>(use: (db: Database.Database) => T): T => {
    const db = new Database(join(desk.paths.embeddedRegistryDir, REGISTRY_DB_FILE));
    try {
      return use(db);
    } finally {
      db.close();
    }
  };
  const setExaminer = (granted: boolean) => withRegistryDb((db) => db.prepare('UPDATE apps SET examiner_read = ?').run(granted ? 1 : 0));
  /** App tokens the registry issued (each also an audit entry and a transparency-log leaf). */
  const appTokens = () =>
    withRegistryDb((db) => (db.prepare('SELECT COUNT(*) AS n FROM access_tokens WHERE installation_id IS NULL').get() as { n: number }).n);
  let tokensBefore = 0;
  /** The next event of the type, failing after `ms`. */
  const next = (type: DeskEvent['type'], ms: number) =>
    new Promise<DeskEvent>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${type} came`)), ms);
      const off = desk.onEvent((e) => {
        if (e.type !== type) return;
        clearTimeout(timer);
        off();
        resolve(e);
      });
    });
  const internal = async () => (await ok('projects.search', { scope: 'internal', limit: 1 })).total;
  const embedded = async () => (await ok('connections.list', {})).connections.find((c) => c.id === EMBEDDED_CONNECTION_ID)!;

  it("at the desk's start, learns them with the token its sync then keeps: one app token for both", () => {
    // The start refreshed the installations and the grant, then synced; only cache reads came since.
    expect(appTokens()).toBe(1);
  });

  it('revoked: the next sync stops syncing internal projects without failing, and Settings says so', async () => {
    expect(await internal()).toBeGreaterThan(0);
    tokensBefore = appTokens();
    setExaminer(false);
    const finished = next('sync.finished', 10_000);
    const changed = next('connections.changed', 10_000);
    await ok('sync.run', {});
    await finished;
    await changed;
    expect((await embedded()).examinerRead).toBe(false);
    expect((await ok('sync.status', {})).lastError).toBeNull();
    // what the app may no longer read is not kept either
    expect(await internal()).toBe(0);
  });

  it('granted again: Refresh installations shows it at once', async () => {
    setExaminer(true);
    expect((await ok('connections.refreshInstallations', { id: EMBEDDED_CONNECTION_ID })).examinerRead).toBe(true);
    expect((await embedded()).examinerRead).toBe(true);
  });

  it('learns both with the app token it keeps: neither the sync nor the refresh mints one', () => {
    expect(tokensBefore).toBeGreaterThan(0);
    expect(appTokens()).toBe(tokensBefore);
  });
});
