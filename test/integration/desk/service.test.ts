// The desk service over a real embedded registry in a temporary data folder: first start seeds,
// provisions the embedded connection and syncs; reads come from the cache; bad input and offline
// writes change nothing; registry refusals arrive as DeskErrors; finishing a reservation is
// followed to its end with events; CSV export holds exactly what the list shows.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeskEvent, DeskMethod } from '@shared/desk/api';
import { createDeskService, type DeskService } from '@desk/service';
import { EMBEDDED_CONNECTION_ID } from '@desk/connection-manager';
import { seedDemo } from '@registry/seed';
import { REGISTRY_DB_FILE } from '@registry/open';
import { makeDataDir } from '@test/support/registry';
import { deskCalls } from '@test/support/desk-calls';
import { Wallet } from 'ethers';
import { finalizeMessage } from '@registry/retirements/finalize';

let data: { dir: string; remove(): void };
let desk: DeskService;
const events: DeskEvent[] = [];

function waitForEvent(match: (e: DeskEvent) => boolean, timeoutMs = 60_000): Promise<DeskEvent> {
  const seen = events.find(match);
  if (seen) return Promise.resolve(seen);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('event did not come')), timeoutMs);
    const off = desk.onEvent((e) => {
      if (!match(e)) return;
      clearTimeout(timer);
      off();
      resolve(e);
    });
  });
}

const { ok, fails } = deskCalls(() => desk);

function reservationCount(): number {
  const db = new Database(join(desk.paths.embeddedRegistryDir, REGISTRY_DB_FILE), { readonly: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM reservations').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  data = makeDataDir('desk-service-');
  desk = await createDeskService({
    dataDir: data.dir,
    host: 'web',
    version: 'test',
    seedDemo: (registry, options) => void seedDemo(registry, options),
    follow: { intervalMs: 100, timeoutMs: 20_000 },
  });
  desk.onEvent((e) => events.push(e));
  await waitForEvent((e) => e.type === 'sync.finished' || e.type === 'sync.failed', 120_000);
}, 180_000);

afterAll(async () => {
  await desk?.close();
  data?.remove();
});

describe('first start', () => {
  it('provisions the embedded connection from the seeded registry, without writing the key to disk', async () => {
    const list = await ok('connections.list', {});
    expect(list.activeId).toBe(EMBEDDED_CONNECTION_ID);
    const embedded = list.connections.find((c) => c.id === EMBEDDED_CONNECTION_ID)!;
    expect(embedded.kind).toBe('embedded');
    expect(embedded.keyStatus).toBe('ok');
    expect(embedded.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(embedded.installations.length).toBeGreaterThan(0);
    expect(embedded.examinerRead).toBe(true);
    const onDisk = readFileSync(join(data.dir, 'connections.json'), 'utf8');
    expect(onDisk).not.toContain('PRIVATE KEY');
    expect(existsSync(join(data.dir, 'cache', `${EMBEDDED_CONNECTION_ID}.sqlite`))).toBe(true);
  });

  it('synced: the first run finished and every resource has a success time', async () => {
    expect(events.some((e) => e.type === 'sync.progress')).toBe(true);
    expect(events.find((e) => e.type === 'sync.finished' || e.type === 'sync.failed')?.type).toBe('sync.finished');
    const status = await ok('sync.status', {});
    expect(status.online).toBe(true);
    expect(status.lastError).toBeNull();
    expect(Object.values(status.lastSuccess).every((v) => v !== null)).toBe(true);
    // Statuses and events count the ended runs alike, so the page can order one against the other.
    const ended = events.filter((e) => e.type === 'sync.finished' || e.type === 'sync.failed');
    const last = ended.at(-1)!;
    expect(last.type === 'sync.finished' || last.type === 'sync.failed' ? last.status.runsEnded : null).toEqual(status.runsEnded);
    expect(status.runsEnded.count).toBe(ended.length);
    // the embedded registry's history, verified by the sync worker, as the status and Settings show it
    expect(status.history).toMatchObject({ state: 'verified', pending: 0, evidence: 0 });
    expect(status.history!.entries).toBeGreaterThan(0);
    const listed = await ok('connections.list', {});
    expect(listed.connections.find((c) => c.id === listed.activeId)?.history).toEqual(status.history);
    expect(await ok('sync.historyEvidence', {})).toEqual([]);
  });
});

describe('reads', () => {
  it('searches projects from the cache with freshness', async () => {
    const page = await ok('projects.search', { limit: 5 });
    expect(page.total).toBeGreaterThan(20);
    expect(page.rows).toHaveLength(5);
    expect(page.offline).toBe(false);
    expect(page.asOf).not.toBeNull();
    const one = await ok('projects.get', { id: page.rows[0]!.id });
    expect(one.project.id).toBe(page.rows[0]!.id);
    // By the number an address names (/projects/1006) as well.
    const byNum = await ok('projects.get', { id: page.rows[0]!.num });
    expect(byNum.project.id).toBe(page.rows[0]!.id);
  });

  it('answers unknown ids with not_found', async () => {
    expect((await fails('projects.get', { id: 'no-such-project' })).code).toBe('not_found');
  });

  it('reads a warehouse live, with a clock offset', async () => {
    const list = await ok('connections.list', {});
    const writable = list.connections[0]!.installations.find((i) => i.permissions.organization_warehouse === 'WRITE')!;
    const view = await ok('warehouse.get', { organizationId: writable.organizationId });
    expect(view.canWrite).toBe(true);
    expect(view.credits.length).toBeGreaterThan(0);
    expect(view.offline).toBe(false);
    expect(Math.abs(view.clockOffsetMs)).toBeLessThan(5_000);
  });
});

describe('invalid input', () => {
  it('lists every problem and changes nothing', async () => {
    const before = reservationCount();
    const error = await fails('warehouse.reserve', { organizationId: '', creditId: 42, amount: -1 });
    expect(error.code).toBe('invalid_input');
    expect(error.details).toHaveLength(3);
    expect(error.details!.join('\n')).toMatch(/organizationId/);
    expect(error.details!.join('\n')).toMatch(/creditId/);
    expect(error.details!.join('\n')).toMatch(/amount/);
    expect(reservationCount()).toBe(before);
  });

  it('refuses unknown methods and bad search input', async () => {
    expect((await fails('nope' as DeskMethod, {})).code).toBe('invalid_input');
    const error = await fails('projects.search', { limit: 0, sort: { field: 'bogus' } });
    expect(error.code).toBe('invalid_input');
    expect(error.details!.length).toBe(2);
  });
});

describe('warehouse writes', () => {
  it('reserves, is refused with the registry message on an impossible amount, and follows a finish to processed', async () => {
    const list = await ok('connections.list', {});
    const connection = list.connections[0]!;
    const writable = connection.installations.find((i) => i.permissions.organization_warehouse === 'WRITE')!;
    const view = await ok('warehouse.get', { organizationId: writable.organizationId });
    const credit = view.credits.find((c) => c.amount >= 2)!;

    const tooMuch = await fails('warehouse.reserve', {
      organizationId: writable.organizationId,
      creditId: credit.id,
      amount: credit.amount + 1_000_000,
    });
    expect(tooMuch.code).toBe('conflict');
    expect(tooMuch.message).toMatch(/registry/i);

    const reservation = await ok('warehouse.reserve', { organizationId: writable.organizationId, creditId: credit.id, amount: 1 });
    expect(reservation.amount).toBe(1);
    const receiver = (await ok('organizations.list', {})).organizations.find((o) => o.id !== writable.organizationId)!;
    const finished = await ok('warehouse.finish', {
      organizationId: writable.organizationId,
      reservationId: reservation.id,
      action: 'transfer',
      body: { receiverId: receiver.id },
    });
    expect(finished.success).toBe(true);
    const done = await waitForEvent(
      (e) => e.type === 'reservation.updated' && e.reservationId === reservation.id && (e.state === 'processed' || e.state === 'failed'),
      20_000,
    );
    expect(done).toMatchObject({ state: 'processed' });

    const again = await fails('warehouse.finish', {
      organizationId: writable.organizationId,
      reservationId: reservation.id,
      action: 'transfer',
      body: { receiverId: receiver.id },
    });
    expect(again.code).toBe('conflict');
  });

  it('refuses organizations the app is not installed in', async () => {
    const error = await fails('warehouse.reserve', { organizationId: 'not-installed', creditId: 'x', amount: 1 });
    expect(error.code).toBe('forbidden');
  });
});

describe('certificate', () => {
  it('downloads a claimed retirement certificate as a PDF file', async () => {
    const claimed = await ok('retirements.search', { filters: { claimed: true }, limit: 1 });
    const id = claimed.rows[0]!.id;
    const file = await ok('retirements.certificate', { id });
    // The renderer gets a handle; the desk keeps the bytes and named the file itself.
    expect(file).toEqual({
      handle: expect.stringMatching(/^[A-Za-z0-9_-]{24}$/),
      kind: 'pdf',
      filename: `retirement-${id}.pdf`,
      size: expect.any(Number),
    });
    const kept = desk.artifacts.get(file.handle)!;
    expect(kept.mimeType).toBe('application/pdf');
    expect(kept.bytes.byteLength).toBe(file.size);
    expect(Buffer.from(kept.bytes.subarray(0, 5)).toString()).toBe('%PDF-');
    // the demo has no public website: its check address is said to be a placeholder, and not linked
    expect(Buffer.from(kept.bytes).toString('latin1')).not.toContain('/URI (');
    // The embedded registry's certificate is asked for in-process: the same bytes as its HTTP answer.
    const overHttp = await desk.registryClient!.call('getRetirementPdf', { params: { retirementId: id } });
    expect(Buffer.from(kept.bytes).equals(Buffer.from(overHttp.bytes))).toBe(true);
  });

  it('answers in-process refusals as the registry does over HTTP: unknown 404, unclaimed 409', async () => {
    expect(await fails('retirements.certificate', { id: 'no-such-retirement' })).toMatchObject({ code: 'not_found' });
    const unclaimed = await ok('retirements.search', { filters: { claimed: false }, limit: 1 });
    const refused = await fails('retirements.certificate', { id: unclaimed.rows[0]!.id });
    expect(refused.code).toBe('conflict');
    expect(refused.message).toMatch(/not claimed/);
  });
});

describe('retirements.finalize', () => {
  it('finalizes with a wallet signature and shows the claimed retirement from the cache at once', async () => {
    const credentials = JSON.parse(readFileSync(join(desk.paths.embeddedRegistryDir, 'demo-credentials.json'), 'utf8')) as {
      wallets: { address: string; privateKey: string; retirements: { id: string; projectAddress: string; tokenId: string }[] }[];
    };
    // the oldest of the wallets' retirements: an incremental sync (newest first) would not reach it
    const candidates = credentials.wallets.flatMap((w) => w.retirements.map((r) => ({ wallet: w, r })));
    const dated = await Promise.all(
      candidates.map(async (c) => ({ ...c, at: (await ok('retirements.get', { id: c.r.id })).retirement.createdAt })),
    );
    const { wallet, r } = dated.sort((a, b) => a.at.localeCompare(b.at))[0]!;
    const before = await ok('retirements.get', { id: r.id });
    expect(before.retirement.isClaimed).toBe(false);

    const signedData = {
      beneficiary: 'Service Test Beneficiary Ltd',
      comment: 'desk test',
      reason: 'Voluntary offset',
      projectAddress: r.projectAddress,
      tokenId: r.tokenId,
    };
    const signature = await new Wallet(wallet.privateKey).signMessage(finalizeMessage(signedData));
    const done = await ok('retirements.finalize', { retirementId: r.id, signer: wallet.address, signature, signedData });
    expect(done.retirement).toMatchObject({ id: r.id, isClaimed: true, beneficiary: signedData.beneficiary });

    const cached = await ok('retirements.get', { id: r.id });
    expect(cached.retirement).toMatchObject({ isClaimed: true, beneficiary: signedData.beneficiary });
    const found = await ok('retirements.search', { query: 'Service Test Beneficiary' });
    expect(found.rows.map((row) => row.id)).toContain(r.id);
  });
});

describe('export.csv', () => {
  it('holds every row of the filtered list, in its order, from offset 0 whatever page was shown', async () => {
    const search = {
      query: '',
      filters: { status: 'registered' as const },
      sort: { field: 'name' as const, direction: 'desc' as const },
      offset: 20,
      limit: 10,
    };
    const all = await ok('projects.search', { ...search, offset: 0, limit: 500 });
    expect(all.total).toBeGreaterThan(10);
    const file = await ok('export.csv', { list: 'projects', search });
    expect(file.kind).toBe('csv');
    expect(file.filename).toMatch(/^projects-public-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = Buffer.from(desk.artifacts.get(file.handle)!.bytes)
      .toString('utf8')
      .replace(/^\uFEFF/, '');
    expect(text.endsWith('\r\n')).toBe(true);
    const lines = text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('Number,Name,Status,Country,Sector,Methodology,Type,Proponents,Start date,Public,Id');
    expect(lines).toHaveLength(all.total + 1);
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(all.rows.map((r) => r.num));
  });

  it('exports retirements with the list filter', async () => {
    const unclaimed = await ok('retirements.search', { filters: { claimed: false }, limit: 500 });
    const file = await ok('export.csv', { list: 'retirements', search: { filters: { claimed: false } } });
    const lines = Buffer.from(desk.artifacts.get(file.handle)!.bytes).toString('utf8').trimEnd().split('\r\n');
    expect(lines).toHaveLength(unclaimed.total + 1);
    expect(lines.slice(1).every((l) => l.split(',').at(-2) === 'no')).toBe(true);
  });

  it("exports the audit log's filtered entries, every page of them, newest first", async () => {
    // more entries than one page of the registry's search, of two outcomes (the filter keeps one)
    const db = new Database(join(desk.paths.embeddedRegistryDir, REGISTRY_DB_FILE));
    const add = db.prepare(
      "INSERT INTO audit_log (id, at, operator_id, actor, action, outcome) VALUES (?, ?, NULL, 'cli:test', 'test.bulk', ?)",
    );
    for (let i = 0; i < 200; i++) add.run(`bulk-${i}`, Date.now(), i % 3 === 0 ? 'refused' : 'succeeded');
    const expected = db
      .prepare("SELECT id FROM audit_log WHERE action = 'test.bulk' AND outcome = 'succeeded' ORDER BY seq DESC")
      .all() as { id: string }[];
    db.close();
    expect(expected).toHaveLength(133);
    const file = await ok('export.csv', { list: 'audit', filter: { action: 'test.bulk', outcome: 'succeeded' } });
    expect(file.filename).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = Buffer.from(desk.artifacts.get(file.handle)!.bytes).toString('utf8').trimEnd().split('\r\n');
    expect(lines[0]).toBe('\uFEFFTime,Operator,Actor,Action,Outcome,Targets,Detail,Id');
    expect(lines.slice(1).map((l) => l.split(',').at(-1))).toEqual(expected.map((e) => e.id));
    expect((await fails('export.csv', { list: 'audit', filter: { outcome: 'maybe' } })).code).toBe('invalid_input');
  });
});

describe('offline (registry stopped)', () => {
  it('writes fail with offline and change nothing; reads still answer, marked offline', async () => {
    const list = await ok('connections.list', {});
    const writable = list.connections[0]!.installations.find((i) => i.permissions.organization_warehouse === 'WRITE')!;
    const view = await ok('warehouse.get', { organizationId: writable.organizationId });
    const credit = view.credits[0]!;
    await desk.embedded!.stop();
    const before = reservationCount();

    const error = await fails('warehouse.reserve', { organizationId: writable.organizationId, creditId: credit.id, amount: 1 });
    expect(error.code).toBe('offline');
    expect(error.message).toBe('Reserving credits needs the registry, which cannot be reached; nothing was changed');
    expect(reservationCount()).toBe(before);
    await waitForEvent((e) => e.type === 'online.changed' && !e.online, 1_000);

    const page = await ok('projects.search', { limit: 3 });
    expect(page.rows).toHaveLength(3);
    expect(page.offline).toBe(true);
    const cachedWarehouse = await ok('warehouse.get', { organizationId: writable.organizationId });
    expect(cachedWarehouse.offline).toBe(true);
    expect((await fails('retirements.certificate', { id: 'any' })).code).toBe('offline');
  });
});
