// Two registry server processes on one PostgreSQL database (REGISTRY_TEST_POSTGRES_URL), each
// answering any request: their serializable transactions must make concurrent reservations and
// finishes come out as if the requests had come one by one to a single process.
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresRegistry, type OpenedPostgresRegistry, type OpenedRegistry } from '@registry/open';
import * as ops from '@registry/operations';
import { balanceOf, findAccountId } from '@registry/ledger';
import { installationTokenGrant, issueAccessToken } from '@registry/auth/tokens';
import { buildFixture, type Fixture } from '@test/support/fixture';
import { createTestDatabase, NO_POSTGRES_MESSAGE, POSTGRES_URL, type TestDatabase } from '@test/support/postgres';
import { createTestApp, type TestApp } from '@test/support/registry';
import { createTestOperator } from '@test/support/operators';
import { startServerProcess as startServer, stopServerProcess, type ServerProcess as Server } from '@test/support/registry-processes';
import { verifyLogDatabase } from '@registry/transparency/verify-database';
import { verifyRegistryLog } from '@registry/transparency/remote-verify';
import { join } from 'node:path';
import { makeDataDir } from '@test/support/registry';
import { admin, nextLine, startClaimer, statusFrom } from '@test/support/process-helpers';

const G = 1_000_000;
/** Both servers run with `--rate-limit 300/36000`: more than any app here spends, but one. */
const RATE_LIMIT = 300;

if (!POSTGRES_URL) console.warn(NO_POSTGRES_MESSAGE);

/**
 * Run again through PgBouncer (the `pgbouncer` project), the tests of one atomic statement each (the
 * two budgets) and of the admin CLI are left out: a pooler changes nothing for a single statement,
 * and they were a third of this file's time there. What a pooler can break (statements across a
 * transaction, row claims, the queue) is in the others, and in postgres-outage.test.ts.
 */
const THROUGH_POOLER = /[?&]pgbouncer=true(&|$)/.test(POSTGRES_URL);

describe.skipIf(!POSTGRES_URL)('two server processes on one PostgreSQL database', () => {
  let database: TestDatabase;
  let registry: OpenedPostgresRegistry;
  let f: Fixture;
  let app: TestApp;
  let installationId: string;
  let servers: Server[] = [];
  let claimer: ChildProcess | undefined;
  let token: string;
  /** What a verifier kept from the second process at the start: its key and checkpoint. */
  let verifierState: { dir: string; remove(): void } | undefined;
  const verifierStateFile = () => join(verifierState!.dir, 'state.json');

  const reservationsPath = () => `/organizations/${f.orgA}/warehouse/inventory/reservations`;
  const post = (server: Server, path: string, body: unknown) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const warehouse = () => balanceOf(registry, findAccountId(registry, { kind: 'warehouse', organizationId: f.orgA })!, f.creditId);
  const inventoryB = () => balanceOf(registry, findAccountId(registry, { kind: 'inventory', organizationId: f.orgB })!, f.creditId);
  const held = () =>
    Number(registry.db.query(`SELECT COALESCE(SUM(amount), 0) AS n FROM reservations WHERE state IN ('pending', 'pending_queue')`)[0]!.n);

  beforeAll(async () => {
    database = createTestDatabase('registry_processes');
    registry = openPostgresRegistry({ databaseUrl: database.url });
    // the fixture's operations take any registry context; the SQLite type is only their signature's
    f = buildFixture(registry as unknown as OpenedRegistry);
    app = createTestApp(registry as unknown as OpenedRegistry, { name: 'Two processes app' });
    installationId = ops.installApp(registry, {
      appId: app.id,
      organizationId: f.orgA,
      permissions: { organization_warehouse: 'WRITE' },
    }).id;
    servers = await Promise.all([0, 1].map(() => startServer(database.url, { RATE_LIMIT: `${RATE_LIMIT}/36000` })));
    const res = await fetch(`${servers[0]!.url}/app/installations/${installationId}/accessTokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await app.jwt()}` },
    });
    expect(res.status).toBe(200);
    token = ((await res.json()) as { token: string }).token;
    verifierState = makeDataDir('processes-verifier-');
    await verifyRegistryLog({ url: servers[1]!.url, state: verifierStateFile() });
  });

  afterAll(async () => {
    claimer?.kill('SIGKILL');
    await Promise.all(servers.map((s) => stopServerProcess(s.child)));
    registry?.close();
    database?.drop();
    verifierState?.remove();
  });

  it('100 concurrent reservations of one credit, split across both: never overbooked', async () => {
    const before = warehouse();
    expect(before).toBe(500 * G);
    // 7 t each of 500 t: exactly 71 fit, whichever process each request reaches
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, i) => post(servers[i % 2]!, reservationsPath(), { creditId: f.creditId, amount: 7 })),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(71);
    expect(statuses.filter((s) => s === 409)).toHaveLength(29);
    expect(held()).toBe(71 * 7 * G);
    expect(warehouse()).toBe(before);
  });

  it('50 concurrent finishes of one reservation across both: exactly one wins, the credits move once', async () => {
    const created = await post(servers[0]!, reservationsPath(), { creditId: f.creditId, amount: 1 });
    expect(created.status).toBe(200);
    const { id } = (await created.json()) as { id: string };
    const before = warehouse();
    const handled = new Promise<void>((resolve) => {
      for (const s of servers) s.lines.on('line', (line) => (JSON.parse(line) as { queueEmpty?: boolean }).queueEmpty && resolve());
    });
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => post(servers[i % 2]!, `${reservationsPath()}/${id}/transfer`, { receiverId: f.orgB })),
    );
    const winners = responses.filter((r) => r.status === 200);
    expect(responses.map((r) => r.status).filter((s) => s !== 200 && s !== 409)).toEqual([]);
    expect(winners).toHaveLength(1);
    expect(responses.filter((r) => r.status === 409)).toHaveLength(49);
    const { transactionId } = (await winners[0]!.json()) as { transactionId: string };
    await handled;
    expect(registry.db.query('SELECT state FROM reservations WHERE id = $1', [id])).toEqual([{ state: 'processed' }]);
    expect(registry.db.query(`SELECT kind, amount FROM movements WHERE reference = $1`, [transactionId])).toEqual([
      { kind: 'transfer', amount: 1 * G },
    ]);
    expect(warehouse()).toBe(before - 1 * G);
  });

  it.skipIf(THROUGH_POOLER)('npm run admin works on the same database while both serve, and audits its writes', async () => {
    const run = await admin(['create-organization', '--database', database.url, '--full-name', 'Delta Offsets', '--country-code', 'NO']);
    expect(run.stderr).toBe('');
    const { id } = JSON.parse(run.stdout) as { id: string };
    expect(registry.db.query('SELECT full_name, country_code FROM organizations WHERE id = $1', [id])).toEqual([
      { full_name: 'Delta Offsets', country_code: 'NO' },
    ]);
    expect(registry.db.query(`SELECT action, outcome FROM audit_log WHERE actor LIKE 'cli:%'`)).toEqual([
      { action: 'organizations.create', outcome: 'succeeded' },
    ]);
    // the SQLite file's maintenance commands say what to use instead
    const backup = await admin(['backup', 'x.bak', '--database', database.url]);
    expect(backup.code).toBe(1);
    expect(backup.stderr).toMatch(/pg_dump/);
  });
  it('no stale answer across processes: what one server changes, the other answers from its very next request', async () => {
    const [a, b] = servers as [Server, Server];
    const call = async (server: Server, path: string, init: { method?: string; bearer?: string; body?: unknown } = {}) => {
      const res = await fetch(`${server.url}${path}`, {
        method: init.method ?? 'GET',
        headers: {
          authorization: `Bearer ${init.bearer ?? token}`,
          ...(init.body === undefined ? {} : { 'content-type': 'application/json', 'idempotency-key': randomUUID() }),
        },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const operator = createTestOperator(registry as unknown as OpenedRegistry, 'administrator', 3);
    const minted = await fetch(`${a.url}/operator/v1/tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await operator.jwt()}` },
    });
    expect(minted.status).toBe(201);
    const operatorBearer = ((await minted.json()) as { token: string }).token;
    const asOperator = (path: string, method: string, body: unknown) =>
      call(a, `/operator/v1${path}`, { method, bearer: operatorBearer, body });
    const inventory = `/organizations/${f.orgA}/warehouse/inventory`;

    // a token revoked through A
    const second = await fetch(`${a.url}/app/installations/${installationId}/accessTokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await app.jwt()}` },
    });
    const secondToken = ((await second.json()) as { token: string }).token;
    expect((await call(b, inventory, { bearer: secondToken })).status).toBe(200);
    expect((await call(a, '/app/installations/token', { method: 'DELETE', bearer: secondToken })).status).toBe(200);
    expect(await call(b, inventory, { bearer: secondToken })).toMatchObject({
      status: 401,
      body: { message: expect.stringMatching(/revoked/) },
    });

    // an installation suspended, then resumed, through A
    expect((await asOperator(`/installations/${installationId}/status`, 'POST', { status: 'suspended' })).status).toBe(200);
    expect(await call(b, inventory)).toMatchObject({ status: 401, body: { message: expect.stringMatching(/suspended/) } });
    expect((await asOperator(`/installations/${installationId}/status`, 'POST', { status: 'active' })).status).toBe(200);
    expect((await call(b, inventory)).status).toBe(200);

    // examiner:read granted through A; a draft renamed through A (project references are cached)
    const draftCredits = `/carbonCredits/projects/${f.draftProjectId}`;
    expect((await call(b, draftCredits)).status).toBe(404);
    expect((await asOperator(`/apps/${app.id}/examiner`, 'POST', { granted: true })).status).toBe(200);
    expect(await call(b, draftCredits)).toMatchObject({ status: 200, body: { project: { fullName: 'Draft Mangroves' } } });
    expect((await asOperator(`/projects/${f.draftProjectId}`, 'PATCH', { fullName: 'Renamed Mangroves' })).status).toBe(200);
    expect(await call(b, draftCredits)).toMatchObject({ status: 200, body: { project: { fullName: 'Renamed Mangroves' } } });

    // B's cached page of public projects, then the draft validated through A
    const publicIds = async () => ((await call(b, '/projects')).body.projects as { id: string }[]).map((p) => p.id);
    expect(await publicIds()).toEqual([f.projectId]);
    expect(await publicIds()).toEqual([f.projectId]);
    for (const status of ['submitted', 'validated']) {
      expect((await asOperator(`/projects/${f.draftProjectId}/status`, 'POST', { status })).status).toBe(200);
    }
    expect((await publicIds()).sort()).toEqual([f.projectId, f.draftProjectId].sort());
  });

  it.skipIf(THROUGH_POOLER)(
    '--rate-limit is the budget of the registry, not of each process: a burst across both, exactly n accepted',
    async () => {
      const limitedApp = createTestApp(registry as unknown as OpenedRegistry, { name: 'Rate-limited app' });
      const permissions = { organization_warehouse: 'VIEW' } as const;
      const limitedInstallation = ops.installApp(registry, { appId: limitedApp.id, organizationId: f.orgB, permissions }).id;
      const { token: limitedToken } = issueAccessToken(
        registry,
        installationTokenGrant(registry, limitedApp.id, limitedInstallation, permissions),
      );
      // RATE_LIMIT requests and 20 more at once, alternating between the processes; the window is
      // so long that nothing refills meanwhile
      const responses = await Promise.all(
        Array.from({ length: RATE_LIMIT + 20 }, (_, i) =>
          fetch(`${servers[i % 2]!.url}/organizations/${f.orgB}/warehouse/inventory`, {
            headers: { authorization: `Bearer ${limitedToken}` },
          }),
        ),
      );
      expect(responses.filter((r) => r.status === 200)).toHaveLength(RATE_LIMIT);
      const refused = responses.filter((r) => r.status === 429);
      expect(refused).toHaveLength(20);
      expect(refused.every((r) => Number(r.headers.get('retry-after')) >= 1)).toBe(true);
    },
  );

  it.skipIf(THROUGH_POOLER)(
    "the failed-authentication budget is the registry's too: of a burst across both, exactly n answered 401",
    async () => {
      // from another loopback address, whose budget nothing else here spends (once spent, every
      // request from an address is 429 until it refills)
      const status = (server: Server) =>
        statusFrom('127.0.0.2', server.url, `/organizations/${f.orgB}/warehouse/inventory`, `rdt_${'0'.repeat(48)}`);
      const statuses = await Promise.all(Array.from({ length: RATE_LIMIT + 20 }, (_, i) => status(servers[i % 2]!)));
      expect(statuses.filter((s) => s === 401)).toHaveLength(RATE_LIMIT);
      expect(statuses.filter((s) => s === 429)).toHaveLength(20);
    },
  );

  // Last: it kills the second server. Reuses the reservations the first test left pending (7 t each).
  it('a burst of finishes across both, one SIGKILLed mid-way, a dead claim taken over: each accepted finish processed once', async () => {
    const [survivor, victim] = servers as [Server, Server];
    const pending = registry.db.query(`SELECT id, amount FROM reservations WHERE organization_id = $1 AND state = 'pending' ORDER BY id`, [
      f.orgA,
    ]) as { id: string; amount: number }[];
    expect(pending.length).toBeGreaterThanOrEqual(45);
    const amountOf = new Map(pending.map((r) => [r.id, r.amount]));
    const [warehouseBefore, receiverBefore] = [warehouse(), inventoryB()];

    // A worker of a third process claims one finished transaction and hangs holding it.
    claimer = startClaimer({
      url: database.url,
      organizationId: f.orgA,
      receiverId: f.orgB,
      reservationIds: pending.slice(0, 5).map((r) => r.id),
    });
    const claimed = await nextLine(createInterface({ input: claimer.stdout! }), (m) => m.claimed as string | null);
    expect(claimed).not.toBeNull();

    // 40 finishes, and 10 of them again (each refused, or beaten), split across the two servers; the
    // second is SIGKILLed once it has accepted five (its worker draining, more requests in flight).
    const burst = pending.slice(5, 45).map((r) => r.id);
    // (request 40 + j finishes burst[j + 1] again: the other server than the first finish's)
    const targets = [...burst, ...burst.slice(1, 11)];
    let victimAccepted = 0;
    const outcomes = await Promise.all(
      targets.map(async (reservationId, i) => {
        const server = i % 2 === 0 ? survivor : victim;
        try {
          const res = await post(server, `${reservationsPath()}/${reservationId}/transfer`, { receiverId: f.orgB });
          const body = (await res.json()) as { transactionId?: string };
          if (server === victim && res.ok && ++victimAccepted === 5) victim.child.kill('SIGKILL');
          return { reservationId, status: res.status, transactionId: body.transactionId };
        } catch {
          return { reservationId, status: 0 }; // the answer was lost with the process: either way
        }
      }),
    );
    expect(victim.child.signalCode ?? (await new Promise((resolve) => victim.child.once('exit', (_code, signal) => resolve(signal))))).toBe(
      'SIGKILL',
    );
    expect(outcomes.map((o) => o.status).filter((s) => ![0, 200, 409].includes(s))).toEqual([]);

    // The survivor processes everything but the claimed transaction, never waiting for its claim …
    const queued = () => Number(registry.db.query(`SELECT COUNT(*) AS n FROM transactions WHERE state = 'pending_queue'`)[0]!.n);
    const oneLeft = nextLine(survivor.lines, (m) => m.queueLeft ?? undefined);
    if (queued() !== 1) await oneLeft;
    expect(registry.db.query(`SELECT id FROM transactions WHERE state = 'pending_queue'`)).toEqual([{ id: claimed }]);
    // … and once its holder is killed, takes it over.
    const drained = nextLine(survivor.lines, (m) => m.queueEmpty ?? undefined);
    claimer.kill('SIGKILL');
    await drained;

    const transactions = registry.db.query(
      `SELECT t.id, t.reservation_id, t.state, r.state AS reservation_state FROM transactions t JOIN reservations r ON r.id = t.reservation_id
       WHERE r.organization_id = $1`,
      [f.orgA],
    ) as { id: string; reservation_id: string; state: string; reservation_state: string }[];
    const mine = transactions.filter((t) => amountOf.has(t.reservation_id));
    const byReservation = new Map<string, typeof mine>();
    for (const t of mine) byReservation.set(t.reservation_id, [...(byReservation.get(t.reservation_id) ?? []), t]);
    // every finish the claimer made (the claimed one among them) and every accepted one: processed
    const accepted = outcomes.filter((o) => o.status === 200);
    for (const o of accepted) expect(byReservation.get(o.reservationId)).toEqual([expect.objectContaining({ id: o.transactionId })]);
    expect(mine.find((t) => t.id === claimed)).toBeDefined();
    for (const [reservationId, txs] of byReservation) {
      // at most one transaction per reservation: a refused or lost finish added none beside the winner
      expect(txs, reservationId).toHaveLength(1);
      expect(txs[0]).toMatchObject({ state: 'processed', reservation_state: 'processed' });
    }
    // finishes that were neither accepted nor by the claimer changed nothing unless one of them was
    // lost with the killed process after its commit (then it too is processed, once)
    const unknown = new Set(outcomes.filter((o) => o.status === 0).map((o) => o.reservationId));
    const claimerFinished = new Set(pending.slice(0, 5).map((r) => r.id));
    for (const id of byReservation.keys()) {
      expect(accepted.some((o) => o.reservationId === id) || unknown.has(id) || claimerFinished.has(id), id).toBe(true);
    }
    for (const r of pending.filter((p) => !byReservation.has(p.id))) {
      expect(registry.db.query('SELECT state FROM reservations WHERE id = $1', [r.id])).toEqual([{ state: 'pending' }]);
    }
    // the ledger moved exactly the processed transactions, each once
    const moved = registry.db.query(`SELECT reference, amount FROM movements WHERE kind = 'transfer' AND reference = ANY($1::text[])`, [
      `{${mine.map((t) => t.id).join(',')}}`,
    ]) as { reference: string; amount: number }[];
    expect(moved.map((m) => m.reference).sort()).toEqual(mine.map((t) => t.id).sort());
    const total = mine.reduce((sum, t) => sum + amountOf.get(t.reservation_id)!, 0);
    expect(moved.reduce((sum, m) => sum + m.amount, 0)).toBe(total);
    expect(warehouse()).toBe(warehouseBefore - total);
    expect(inventoryB()).toBe(receiverBefore + total);
  });
  it('after it all, the transparency log holds every movement and audit entry once, in one order, with no gap', () => {
    const count = (sql: string) => Number(registry.db.query(sql)[0]!.n);
    const rows = count('SELECT (SELECT COUNT(*) FROM movements) + (SELECT COUNT(*) FROM audit_log) AS n');
    expect(count('SELECT COUNT(*) AS n FROM tlog_leaves')).toBe(rows);
    expect(count('SELECT MAX(idx) + 1 AS n FROM tlog_leaves')).toBe(rows);
    expect(verifyLogDatabase(registry).problems).toEqual([]);
  });
  it('one key, one history: what a verifier kept from the killed process, the survivor extends', async () => {
    // (a rejection names what failed: another key served, or a checkpoint that does not extend the kept one)
    const survivor = servers[0]!;
    await expect(verifyRegistryLog({ url: survivor.url, state: verifierStateFile() })).resolves.toMatchObject({ verified: true });
  });
});
